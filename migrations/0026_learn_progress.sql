-- Learn to play (issue 29): the exercises and practice games an account has done. Ids are the
-- lessons' own (the server accepts only ids its lessons name), so a player has at most one row
-- per exercise the site teaches.
CREATE TABLE learn_progress (
    player_id   TEXT NOT NULL REFERENCES players (id),
    item        TEXT NOT NULL,
    done_at     BIGINT NOT NULL,
    PRIMARY KEY (player_id, item)
);
