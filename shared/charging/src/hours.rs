//! A station's opening hours: one or more daily periods, each of which may
//! run past midnight.
//!
//! Text form (what is stored and sent, unchanged for the one-period case
//! so stations saved before still read): `HH:MM-HH:MM` periods joined by
//! commas, sorted by start, e.g. `06:00-23:00`, `00:00-24:00` (all day),
//! `23:00-06:00` (from 23:00 to 06:00 the next morning) or
//! `07:00-12:00,14:00-22:00`. An end before the start means the next day.
//! Input may also separate periods with `;` or the full-width comma and
//! semicolon, and use spaces; it is
//! stored in the canonical form.

use crate::problem::Problem;

/// At most this many periods a day.
pub const MAX_PERIODS: usize = 6;
const DAY: u16 = 24 * 60;

/// One daily period in minutes from midnight: `start` in 0..1440, `end` in
/// 1..=1440; `end <= start` means it ends the next day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub start: u16,
    pub end: u16,
}

impl Period {
    /// Whether it runs past midnight into the next day.
    pub fn crosses_midnight(&self) -> bool {
        self.end <= self.start
    }

    /// Whether minute `m` of a day (0..1440) falls in it.
    pub fn contains(&self, m: u16) -> bool {
        if self.crosses_midnight() {
            m >= self.start || m < self.end
        } else {
            m >= self.start && m < self.end
        }
    }
}

fn hhmm(m: u16) -> String {
    format!("{:02}:{:02}", m / 60, m % 60)
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", hhmm(self.start), hhmm(self.end))
    }
}

/// `HH:MM` with 00:00..=24:00.
fn parse_hhmm(s: &str) -> Option<u16> {
    let (h, m) = s.trim().split_once(':')?;
    if h.len() != 2 || m.len() != 2 || !h.chars().chain(m.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 || h == 24 && m == 0).then_some(h * 60 + m)
}

/// What is wrong with opening hours as typed (the field is `openingHours`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HoursProblem {
    #[error("Opening hours are required, {EXAMPLES}")]
    Required,
    #[error("Opening hours can have at most {max} periods a day (got {got})")]
    TooManyPeriods { max: usize, got: usize },
    #[error("Opening hours: \"{part}\" is not a period HH:MM-HH:MM, {EXAMPLES}")]
    NotAPeriod { part: String },
    #[error("Opening hours: \"{part}\" starts at 24:00; start at 00:00 instead")]
    StartsAt24 { part: String },
    #[error("Opening hours: \"{part}\" starts and ends at the same time; all day is 00:00-24:00")]
    StartsWhereItEnds { part: String },
    #[error("Opening hours: the periods {first} and {second} overlap")]
    Overlap { first: Period, second: Period },
}

/// The field opening hours are typed in.
pub const FIELD: &str = "openingHours";

const EXAMPLES: &str = "e.g. 06:00-23:00, 23:00-06:00 (past midnight), 07:00-12:00,14:00-22:00, or 00:00-24:00 for all day";

fn problem(kind: HoursProblem) -> Problem<HoursProblem> {
    Problem::new(FIELD, kind)
}

/// Parses opening hours; the problem says which period is wrong and why.
pub fn parse(text: &str) -> Result<Vec<Period>, Problem<HoursProblem>> {
    let parts: Vec<&str> = text.split([',', '\u{ff0c}', ';', '\u{ff1b}']).map(str::trim).collect();
    if parts.iter().all(|p| p.is_empty()) {
        return Err(problem(HoursProblem::Required));
    }
    if parts.len() > MAX_PERIODS {
        return Err(problem(HoursProblem::TooManyPeriods { max: MAX_PERIODS, got: parts.len() }));
    }
    let mut periods = Vec::new();
    for part in parts {
        let bad = || problem(HoursProblem::NotAPeriod { part: part.to_string() });
        let (a, b) = part.split_once(['-', '~', '–', '—']).ok_or_else(bad)?;
        let (start, end) = (parse_hhmm(a).ok_or_else(bad)?, parse_hhmm(b).ok_or_else(bad)?);
        if start == DAY {
            return Err(problem(HoursProblem::StartsAt24 { part: part.to_string() }));
        }
        // 24:00 and 00:00 are the same end; 00:00 is kept as 24:00.
        let end = if end == 0 { DAY } else { end };
        if start == end {
            return Err(problem(HoursProblem::StartsWhereItEnds { part: part.to_string() }));
        }
        periods.push(Period { start, end });
    }
    periods.sort_by_key(|p| p.start);
    // No minute may be in two periods (also across midnight).
    let mut owner: Vec<Option<Period>> = vec![None; DAY as usize];
    for p in &periods {
        for m in 0..DAY {
            if p.contains(m) {
                if let Some(other) = owner[m as usize] {
                    return Err(problem(HoursProblem::Overlap { first: other, second: *p }));
                }
                owner[m as usize] = Some(*p);
            }
        }
    }
    Ok(periods)
}

/// The canonical text of periods (sorted, comma-separated).
pub fn format(periods: &[Period]) -> String {
    periods.iter().map(Period::to_string).collect::<Vec<_>>().join(",")
}

/// Parses and gives back the canonical text.
pub fn normalise(text: &str) -> Result<String, Problem<HoursProblem>> {
    parse(text).map(|p| format(&p))
}

/// Whether the station is open at minute `m` of a local day.
pub fn is_open(periods: &[Period], m: u16) -> bool {
    periods.iter().any(|p| p.contains(m % DAY))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_forms_still_read() {
        assert_eq!(normalise("06:00-23:00").unwrap(), "06:00-23:00");
        assert_eq!(normalise("00:00-24:00").unwrap(), "00:00-24:00");
        assert!(is_open(&parse("00:00-24:00").unwrap(), 0));
        assert!(is_open(&parse("00:00-24:00").unwrap(), 1439));
    }

    #[test]
    fn past_midnight_and_several_periods() {
        let p = parse("23:00-06:00").unwrap();
        assert!(p[0].crosses_midnight());
        assert!(is_open(&p, 23 * 60 + 30) && is_open(&p, 0) && is_open(&p, 5 * 60 + 59));
        assert!(!is_open(&p, 6 * 60) && !is_open(&p, 12 * 60));
        assert_eq!(normalise(" 14:00-22:00 ，07:00 - 12:00 ").unwrap(), "07:00-12:00,14:00-22:00");
        assert_eq!(normalise("18:00-00:00").unwrap(), "18:00-24:00");
        assert_eq!(normalise("06:00-12:00;22:00-02:00").unwrap(), "06:00-12:00,22:00-02:00");
        // Touching periods do not overlap.
        assert!(parse("00:00-12:00,12:00-24:00").is_ok());
    }

    #[test]
    fn problems_name_the_period() {
        let e = parse("22:00-02:00,01:00-05:00").unwrap_err();
        assert_eq!(e.field, "openingHours");
        assert!(e.kind.to_string().contains("01:00-05:00") && e.kind.to_string().contains("22:00-02:00") && e.kind.to_string().contains("overlap"), "{}", e.kind);
        assert!(parse("08:00-08:00").unwrap_err().kind.to_string().contains("same time"));
        assert!(parse("8:00-20:00").unwrap_err().kind.to_string().contains("\"8:00-20:00\""));
        assert!(parse("24:00-06:00").is_err());
        assert!(parse("06:00-24:30").is_err());
        assert!(parse("").unwrap_err().kind.to_string().contains("required"));
        assert!(parse("00:00-24:00,06:00-07:00").unwrap_err().kind.to_string().contains("overlap"));
        let seven = vec!["01:00-02:00"; 7].join(",");
        assert!(parse(&seven).unwrap_err().kind.to_string().contains("at most 6"));
    }
}
