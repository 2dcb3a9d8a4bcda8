//! Base64url as Web Push writes it: keys and tokens without padding (RFC 7515 §2), while
//! accepting padding on the way in, which some clients add.

use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Base64url without padding.
pub(crate) fn encode(bytes: &[u8]) -> String {
    ENGINE.encode(bytes)
}

/// Base64url, padded or not; `None` when the text is not base64url.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    ENGINE.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_without_padding_and_reads_either_way() {
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("-_8"), Some(vec![0xfb, 0xff]));
        assert_eq!(decode("-_8="), Some(vec![0xfb, 0xff]));
        // The standard alphabet's `+` and `/` are not base64url.
        assert_eq!(decode("+/8"), None);
    }
}
