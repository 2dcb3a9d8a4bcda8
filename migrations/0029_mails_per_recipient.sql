-- Confirmation mails sent to one address (issue 49): at most a few a day whoever asks, so that
-- many accounts from many addresses cannot flood a stranger's inbox. The address is kept as
-- the SHA-256 of its lower-case form; a row whose day has passed is deleted.
CREATE TABLE mails_per_recipient (
    recipient_hash  TEXT PRIMARY KEY,
    day_began       BIGINT NOT NULL,
    sent            BIGINT NOT NULL
);
CREATE INDEX mails_per_recipient_by_day ON mails_per_recipient (day_began);
