//! Dates as text without a date crate: UTC only, which is all the server writes.

/// The UTC calendar date and time of day of `ms` since the epoch: (year, month, day, seconds
/// into the day).
pub fn utc(ms: i64) -> (i64, u32, u32, i64) {
    let seconds = ms.div_euclid(1000);
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    (y, m, d, secs)
}

/// `2026-12-01T01:01:00Z`.
pub fn rfc3339(ms: i64) -> String {
    let (y, m, d, secs) = utc(ms);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// `2026-12-01 01:01 UTC`.
pub fn utc_minutes(ms: i64) -> String {
    let (y, m, d, secs) = utc(ms);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// Milliseconds since the epoch of an RFC 3339 time (`2026-12-01T18:00:00Z`, fractions and
/// offsets such as `+08:00` allowed); `None` if it does not read.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, rest) = text.split_once(['T', 't', ' '])?;
    let mut ymd = date.split('-');
    let (y, m, d): (i64, u32, u32) = (
        ymd.next()?.parse().ok()?,
        ymd.next()?.parse().ok()?,
        ymd.next()?.parse().ok()?,
    );
    if ymd.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let (clock, offset_minutes) = if let Some(clock) = rest.strip_suffix(['Z', 'z']) {
        (clock, 0)
    } else {
        let at = rest.rfind(['+', '-'])?;
        let (clock, offset) = rest.split_at(at);
        let sign = if offset.starts_with('-') { -1 } else { 1 };
        let (oh, om) = offset[1..].split_once(':')?;
        let (oh, om): (i64, i64) = (oh.parse().ok()?, om.parse().ok()?);
        if oh > 23 || om > 59 {
            return None;
        }
        (clock, sign * (oh * 60 + om))
    };
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut hms = whole.split(':');
    let (h, mi, s): (i64, i64, i64) = (
        hms.next()?.parse().ok()?,
        hms.next()?.parse().ok()?,
        hms.next()?.parse().ok()?,
    );
    if hms.next().is_some() || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let millis: i64 = if fraction.is_empty() {
        0
    } else if fraction.bytes().all(|b| b.is_ascii_digit()) {
        let digits: String = fraction
            .chars()
            .chain(std::iter::repeat('0'))
            .take(3)
            .collect();
        digits.parse().ok()?
    } else {
        return None;
    };
    let days = days_from_civil(y, m, d);
    let seconds = days * 86_400 + h * 3600 + mi * 60 + s - offset_minutes * 60;
    Some(seconds * 1000 + millis)
}

/// The inverse of [`civil_from_days`].
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_as_utc_dates() {
        assert_eq!(utc_minutes(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minutes(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(
            utc_minutes(1_796_083_200_000 + 3_660_000),
            "2026-12-01 01:01 UTC"
        );
        assert_eq!(utc(-1).0, 1969);
    }

    #[test]
    fn rfc3339_times_read_to_the_millisecond() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            rfc3339(1_796_083_200_000 + 3_661_000),
            "2026-12-01T01:01:01Z"
        );
        assert_eq!(
            parse_rfc3339(&rfc3339(1_796_083_261_000)),
            Some(1_796_083_261_000)
        );
        assert_eq!(
            parse_rfc3339("2026-12-01T00:00:00Z"),
            Some(1_796_083_200_000)
        );
        assert_eq!(
            parse_rfc3339("2026-12-01T08:00:00.25+08:00"),
            Some(1_796_083_200_250)
        );
        assert_eq!(
            parse_rfc3339("2000-02-29T00:00:00-00:30"),
            Some(951_784_200_000)
        );
        for bad in [
            "",
            "2026-13-01T00:00:00Z",
            "2026-12-01",
            "2026-12-01T25:00:00Z",
            "2026-12-01T00:00:00",
            "yesterday",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
