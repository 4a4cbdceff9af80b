//! Login-throttling arithmetic (the store keeps the counters).
//!
//! Model: per key (account or client IP) the store keeps a [`FailureWindow`]
//! `{failures, window_started_at}`.
//! - Before checking a password, call [`ThrottlePolicy::evaluate`]; when
//!   `Locked`, refuse without checking the password.
//! - After a failed password, store [`ThrottlePolicy::record_failure`].
//!   When the failure that reaches `max_failures` is recorded, the window is
//!   re-anchored at that moment, so the lockout lasts `lockout_secs` from
//!   the locking failure.
//! - After a successful login, delete the counter.
//!
//! Times are Unix seconds.

/// Thresholds for one throttle key kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Failures within the window that lock the key (>= 1).
    pub max_failures: u32,
    /// Length of the counting window.
    pub window_secs: i64,
    /// How long the key stays locked after the locking failure.
    pub lockout_secs: i64,
}

/// Outcome of [`ThrottlePolicy::evaluate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThrottleDecision {
    Allowed,
    /// Refuse; `retry_after_secs` >= 1 (suitable for `Retry-After`).
    Locked {
        retry_after_secs: i64,
    },
}

/// The stored failure counter of one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureWindow {
    pub failures: u32,
    pub window_started_at: i64,
}

impl Default for ThrottlePolicy {
    /// The per-account policy.
    fn default() -> Self {
        Self::per_account()
    }
}

impl ThrottlePolicy {
    /// Per account: 5 failures within 15 minutes lock it for 15 minutes.
    pub const fn per_account() -> Self {
        Self {
            max_failures: 5,
            window_secs: 15 * 60,
            lockout_secs: 15 * 60,
        }
    }

    /// Per client address: 20 failures within 15 minutes lock it for 15 minutes.
    pub const fn per_client() -> Self {
        Self {
            max_failures: 20,
            window_secs: 15 * 60,
            lockout_secs: 15 * 60,
        }
    }

    fn max_failures(&self) -> u32 {
        self.max_failures.max(1)
    }

    /// Whether a login attempt is allowed now, given the stored counter.
    ///
    /// Locked while `failures_in_window >= max_failures` and
    /// `now < window_started_at + lockout_secs`; `retry_after_secs` is the
    /// time left. Fewer failures never lock (their window may still be open,
    /// which only matters to [`record_failure`](Self::record_failure)).
    pub fn evaluate(
        &self,
        failures_in_window: u32,
        window_started_at: i64,
        now: i64,
    ) -> ThrottleDecision {
        if failures_in_window < self.max_failures() {
            return ThrottleDecision::Allowed;
        }
        let locked_until = window_started_at.saturating_add(self.lockout_secs);
        if now < locked_until {
            ThrottleDecision::Locked {
                retry_after_secs: locked_until.saturating_sub(now),
            }
        } else {
            ThrottleDecision::Allowed
        }
    }

    /// Whether the stored counter no longer applies at `now` (a fresh window
    /// starts at the next failure): the window has ended, or the key was
    /// locked and the lockout has ended.
    pub fn is_stale(&self, failures_in_window: u32, window_started_at: i64, now: i64) -> bool {
        if failures_in_window >= self.max_failures() {
            now >= window_started_at.saturating_add(self.lockout_secs)
        } else {
            now >= window_started_at.saturating_add(self.window_secs)
        }
    }

    /// The counter to store after a failed attempt at `now`. `current` is the
    /// stored counter, `None` if there is none.
    ///
    /// A stale counter restarts at 1 failure from `now`; otherwise the count
    /// goes up by one, and the failure that reaches `max_failures`
    /// re-anchors the window at `now` (start of the lockout). Failures
    /// while already locked do not extend the lockout.
    pub fn record_failure(&self, current: Option<FailureWindow>, now: i64) -> FailureWindow {
        let fresh = FailureWindow {
            failures: 1,
            window_started_at: now,
        };
        let Some(cur) = current else {
            return fresh;
        };
        if self.is_stale(cur.failures, cur.window_started_at, now) {
            return fresh;
        }
        let max = self.max_failures();
        if cur.failures >= max {
            return cur;
        }
        let failures = cur.failures + 1;
        FailureWindow {
            failures,
            window_started_at: if failures >= max {
                now
            } else {
                cur.window_started_at
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ThrottleDecision::{Allowed, Locked};

    const T0: i64 = 1_700_000_000;

    #[test]
    fn defaults() {
        assert_eq!(
            ThrottlePolicy::default(),
            ThrottlePolicy {
                max_failures: 5,
                window_secs: 900,
                lockout_secs: 900
            }
        );
        assert_eq!(
            ThrottlePolicy::per_client(),
            ThrottlePolicy {
                max_failures: 20,
                window_secs: 900,
                lockout_secs: 900
            }
        );
    }

    #[test]
    fn evaluate_boundaries() {
        let p = ThrottlePolicy::per_account();
        let cases: &[(u32, i64, ThrottleDecision)] = &[
            (0, T0, Allowed),
            (4, T0, Allowed),
            (4, T0 + 899, Allowed),
            (
                5,
                T0,
                Locked {
                    retry_after_secs: 900,
                },
            ),
            (
                5,
                T0 + 1,
                Locked {
                    retry_after_secs: 899,
                },
            ),
            (
                5,
                T0 + 899,
                Locked {
                    retry_after_secs: 1,
                },
            ),
            (5, T0 + 900, Allowed),
            (5, T0 + 10_000, Allowed),
            (
                6,
                T0 + 450,
                Locked {
                    retry_after_secs: 450,
                },
            ),
            (
                u32::MAX,
                T0,
                Locked {
                    retry_after_secs: 900,
                },
            ),
        ];
        for (failures, now, expected) in cases {
            assert_eq!(
                p.evaluate(*failures, T0, *now),
                *expected,
                "{failures} at +{}",
                now - T0
            );
        }
        let ip = ThrottlePolicy::per_client();
        assert_eq!(ip.evaluate(19, T0, T0), Allowed);
        assert_eq!(
            ip.evaluate(20, T0, T0 + 60),
            Locked {
                retry_after_secs: 840
            }
        );
    }

    #[test]
    fn clock_going_backwards_stays_locked_not_negative() {
        let p = ThrottlePolicy::per_account();
        assert_eq!(
            p.evaluate(5, T0, T0 - 10),
            Locked {
                retry_after_secs: 910
            }
        );
    }

    #[test]
    fn extreme_times_do_not_overflow() {
        let p = ThrottlePolicy::per_account();
        assert_eq!(
            p.evaluate(5, i64::MAX, i64::MIN),
            Locked {
                retry_after_secs: i64::MAX
            }
        );
        assert_eq!(p.evaluate(5, i64::MIN, i64::MAX), Allowed);
        assert!(p.is_stale(1, i64::MIN, 0));
        let _ = p.record_failure(
            Some(FailureWindow {
                failures: 3,
                window_started_at: i64::MAX,
            }),
            0,
        );
    }

    #[test]
    fn zero_max_failures_behaves_as_one() {
        let p = ThrottlePolicy {
            max_failures: 0,
            window_secs: 60,
            lockout_secs: 60,
        };
        assert_eq!(p.evaluate(0, T0, T0), Allowed);
        assert_eq!(
            p.evaluate(1, T0, T0),
            Locked {
                retry_after_secs: 60
            }
        );
    }

    #[test]
    fn five_failures_lock_for_fifteen_minutes_from_the_fifth() {
        let p = ThrottlePolicy::per_account();
        let mut w = None;
        // failures at +0, +100, +200, +300 (window anchored at +0)
        for (i, at) in [0, 100, 200, 300].into_iter().enumerate() {
            let next = p.record_failure(w, T0 + at);
            assert_eq!(
                next,
                FailureWindow {
                    failures: i as u32 + 1,
                    window_started_at: T0
                }
            );
            assert_eq!(
                p.evaluate(next.failures, next.window_started_at, T0 + at),
                Allowed
            );
            w = Some(next);
        }
        // 5th failure late in the window: lock anchored at the 5th failure
        let fifth = p.record_failure(w, T0 + 850);
        assert_eq!(
            fifth,
            FailureWindow {
                failures: 5,
                window_started_at: T0 + 850
            }
        );
        let at = |dt: i64| p.evaluate(fifth.failures, fifth.window_started_at, T0 + 850 + dt);
        assert_eq!(
            at(0),
            Locked {
                retry_after_secs: 900
            }
        );
        assert_eq!(
            at(899),
            Locked {
                retry_after_secs: 1
            }
        );
        assert_eq!(at(900), Allowed);
        // attempts during the lockout do not extend it
        assert_eq!(p.record_failure(Some(fifth), T0 + 850 + 500), fifth);
        // after the lockout, the next failure starts a fresh window
        assert_eq!(
            p.record_failure(Some(fifth), T0 + 850 + 900),
            FailureWindow {
                failures: 1,
                window_started_at: T0 + 1750
            }
        );
    }

    #[test]
    fn window_expiry_resets_the_count() {
        let p = ThrottlePolicy::per_account();
        let w = FailureWindow {
            failures: 4,
            window_started_at: T0,
        };
        assert!(!p.is_stale(4, T0, T0 + 899));
        assert!(p.is_stale(4, T0, T0 + 900));
        assert_eq!(
            p.record_failure(Some(w), T0 + 899),
            FailureWindow {
                failures: 5,
                window_started_at: T0 + 899
            }
        );
        assert_eq!(
            p.record_failure(Some(w), T0 + 900),
            FailureWindow {
                failures: 1,
                window_started_at: T0 + 900
            }
        );
        assert_eq!(
            p.record_failure(None, T0),
            FailureWindow {
                failures: 1,
                window_started_at: T0
            }
        );
    }

    #[test]
    fn lockout_shorter_or_longer_than_window() {
        let short = ThrottlePolicy {
            max_failures: 2,
            window_secs: 600,
            lockout_secs: 60,
        };
        let w = short.record_failure(short.record_failure(None, T0).into(), T0 + 10);
        assert_eq!(
            w,
            FailureWindow {
                failures: 2,
                window_started_at: T0 + 10
            }
        );
        assert_eq!(
            short.evaluate(w.failures, w.window_started_at, T0 + 69),
            Locked {
                retry_after_secs: 1
            }
        );
        assert_eq!(
            short.evaluate(w.failures, w.window_started_at, T0 + 70),
            Allowed
        );
        assert!(short.is_stale(w.failures, w.window_started_at, T0 + 70));

        let long = ThrottlePolicy {
            max_failures: 2,
            window_secs: 60,
            lockout_secs: 3600,
        };
        let w = long.record_failure(long.record_failure(None, T0).into(), T0 + 10);
        assert_eq!(
            long.evaluate(w.failures, w.window_started_at, T0 + 3609),
            Locked {
                retry_after_secs: 1
            }
        );
        assert_eq!(
            long.evaluate(w.failures, w.window_started_at, T0 + 3610),
            Allowed
        );
        assert!(!long.is_stale(w.failures, w.window_started_at, T0 + 3609));
    }
}
