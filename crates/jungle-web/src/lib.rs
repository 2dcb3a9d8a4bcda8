//! The HTTP plumbing every feature shares, so that a feature's crate needs nothing of the
//! server's: who a request is from ([`client_addr`]: the address, behind trusted proxies;
//! [`identity`]: the player its token names), tokens and origins ([`auth`]), and refusals in
//! the JSON shape clients read ([`json_rejections`]), and the limit on tokens that name nobody
//! ([`token_misses`]).

pub mod auth;
pub mod client_addr;
pub mod identity;
pub mod json_rejections;
pub mod token_misses;
