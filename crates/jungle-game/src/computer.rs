//! The computer opponent's identity: one player per engine level, with a fixed id and name.
//! How it plays (its thinking time, its searches) is the rooms' business.

use uuid::Uuid;

use crate::records::PlayerRecord;

/// The engine levels the computer plays at.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// The fixed id of the computer at a level: the same on every server and after every restart.
pub fn bot_id(level: u8) -> Uuid {
    Uuid::from_u128(0x6a75_6e67_6c65_0000_0000_0000_0000_0000 | level as u128)
}

pub fn bot_level(id: Uuid) -> Option<u8> {
    LEVELS.clone().find(|&level| bot_id(level) == id)
}

pub fn bot_name(level: u8) -> String {
    format!("Computer level {level}")
}

pub fn bot_player(level: u8) -> PlayerRecord {
    PlayerRecord {
        id: bot_id(level),
        name: bot_name(level),
        disconnects: 0,
        bot: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_has_its_own_id_and_is_found_by_it() {
        for level in LEVELS {
            assert_eq!(bot_level(bot_id(level)), Some(level));
            assert_eq!(bot_player(level).name, bot_name(level));
        }
        assert_eq!(bot_level(Uuid::nil()), None);
        assert_eq!(bot_level(bot_id(9)), None);
    }
}
