//! Dates as text without a date crate: UTC only, which is all the server writes.

/// The UTC calendar date and time of day of `ms` since the epoch: (year, month, day, seconds
/// into the day).
pub fn utc(ms: i64) -> (i64, u32, u32, i64) {
    let seconds = ms.div_euclid(1000);
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    (y, m, d, secs)
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
}
