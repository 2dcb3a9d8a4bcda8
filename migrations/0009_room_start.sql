-- A private room may start from a set-up position (the board editor, issue 13): its position
-- text, absent for the initial position.
ALTER TABLE waiting_rooms ADD COLUMN start TEXT;
