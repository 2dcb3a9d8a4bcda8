//! A player's mail address over HTTP (issue 28): give one, confirm it by its link, take it
//! back, unsubscribe without signing in. The mailer itself is `jungle-mail`.

pub mod api;
