//! Usernames and the look-alike check shared with guests' display names.

use unicode_normalization::UnicodeNormalization;

/// Why a username cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsernameError {
    /// Not a username: its length or characters are wrong.
    #[error("{0}")]
    Malformed(String),
    /// Reserved, or it looks like a reserved name.
    #[error("this username is taken, reserved, or looks like one that is")]
    Reserved,
}

/// Names nobody may take: the site's own voices, and the computer's.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "computer",
    "deleted",
    "guest",
    "help",
    "jungle",
    "junglearena",
    "mod",
    "moderator",
    "null",
    "owner",
    "root",
    "staff",
    "support",
    "system",
    "undefined",
];

/// Characters that render as nothing or as a blank, though Unicode calls some of them letters.
const BLANK_LOOKING: &[char] = &[
    '\u{115F}', // Hangul choseong filler
    '\u{1160}', // Hangul jungseong filler
    '\u{3164}', // Hangul filler
    '\u{FFA0}', // halfwidth Hangul filler
    '\u{2800}', // braille blank
    '\u{17B4}', // Khmer vowel inherent aq
    '\u{17B5}', // Khmer vowel inherent aa
    '\u{180E}', // Mongolian vowel separator
];

/// What makes two names one: the same letters ignoring case, or the same look. Case-folding and
/// the look-alike mapping do not compose (`AdaI` looks like `Adal` only with its capital `I`,
/// and is `adai` ignoring case), so a name has both keys and a clash on either is a clash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameKeys {
    /// NFKC, case-folded.
    pub folded: String,
    /// NFKC, then the UTS #39 skeleton (which maps `l`, `I` and `1` alike, Cyrillic `а` to
    /// Latin `a`, and so on), then case-folded.
    pub skeleton: String,
}

pub fn name_keys(name: &str) -> NameKeys {
    let normal: String = name.nfkc().collect();
    let skeleton: String = unicode_security::skeleton(&normal).collect();
    NameKeys {
        folded: normal.to_lowercase(),
        skeleton: skeleton.to_lowercase(),
    }
}

/// Whether two names would be taken for one another.
pub fn clash(a: &NameKeys, b: &NameKeys) -> bool {
    a.folded == b.folded || a.skeleton == b.skeleton
}

/// Checks a username: 2–20 ASCII letters, digits, `_` and `-`, starting with a letter, not
/// reserved. Returns it as typed (its case is kept for display).
pub fn validate_username(raw: &str) -> Result<String, UsernameError> {
    let name = raw.trim();
    let length = name.chars().count();
    if !(2..=20).contains(&length) {
        return Err(UsernameError::Malformed(format!(
            "a username has 2 to 20 characters, not {length}"
        )));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(UsernameError::Malformed(
            "a username starts with a letter".into(),
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(UsernameError::Malformed(format!(
            "a username holds ASCII letters, digits, _ and -, not {bad:?}"
        )));
    }
    let keys = name_keys(name);
    let reserved = RESERVED.iter().any(|r| clash(&name_keys(r), &keys))
        || keys.skeleton.starts_with(&name_keys("computer").skeleton)
        || keys.folded.starts_with("computer");
    if reserved {
        return Err(UsernameError::Reserved);
    }
    Ok(name.to_owned())
}

/// Whether a display name would look blank or hold an invisible character.
pub fn looks_blank(name: &str) -> bool {
    name.chars().any(|c| BLANK_LOOKING.contains(&c))
        || name
            .chars()
            .all(|c| c.is_whitespace() || BLANK_LOOKING.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_follow_the_rules() {
        for good in ["Ada", "ab", "Lovelace_1815", "x-y", "A2345678901234567890"] {
            assert_eq!(validate_username(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "a",
            "1ada",
            "_ada",
            "Ada Lovelace",
            "Аda",
            "ada!",
            "A23456789012345678901",
        ] {
            assert!(
                matches!(validate_username(bad), Err(UsernameError::Malformed(_))),
                "{bad}"
            );
        }
        for reserved in ["admin", "ADMIN", "System", "computer", "Computer8", "r00t"] {
            assert_eq!(
                validate_username(reserved),
                Err(UsernameError::Reserved),
                "{reserved}"
            );
        }
    }

    #[test]
    fn look_alikes_clash() {
        let ada = name_keys("Ada");
        for twin in ["ada", "ADA", "Аda", "𝐀𝐝𝐚", "Ａｄａ"] {
            assert!(clash(&name_keys(twin), &ada), "{twin}");
        }
        assert!(clash(&name_keys("AdaI"), &name_keys("Adal")));
        assert!(clash(&name_keys("AdaI"), &name_keys("adai")));
        assert!(!clash(&name_keys("Ada"), &name_keys("Eda")));
    }

    #[test]
    fn blank_looking_names_are_caught() {
        assert!(looks_blank("\u{3164}"));
        assert!(looks_blank("Ada\u{3164}"));
        assert!(looks_blank("\u{2800}\u{2800}"));
        assert!(!looks_blank("Ada Lovelace"));
        assert!(!looks_blank("张伟"));
    }
}
