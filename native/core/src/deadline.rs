//! End-to-end deadline bookkeeping on the host's monotonic clock (milliseconds, origin chosen by the
//! host). The core never reads a clock: every call carries `now`.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deadline {
    at: f64,
    budget: f64,
}

impl Deadline {
    pub fn new(start: f64, budget_ms: f64) -> Deadline {
        Deadline {
            at: start + budget_ms,
            budget: budget_ms,
        }
    }

    /// At or after the deadline, or a clock value that is not a number (fails closed).
    pub fn expired(&self, now: f64) -> bool {
        now >= self.at || now.is_nan()
    }

    /// Milliseconds left; `0` once expired, never more than the whole budget (a clock that steps
    /// back does not extend the request).
    pub fn remaining(&self, now: f64) -> f64 {
        if self.expired(now) {
            0.0
        } else {
            (self.at - now).min(self.budget)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_is_inclusive_and_nan_fails_closed() {
        let d = Deadline::new(100.0, 50.0);
        assert!(!d.expired(149.9));
        assert!(d.expired(150.0));
        assert!(d.expired(f64::NAN));
        assert_eq!(d.remaining(120.0), 30.0);
        assert_eq!(d.remaining(150.0), 0.0);
        assert_eq!(d.remaining(f64::NAN), 0.0);
        assert_eq!(d.remaining(0.0), 50.0);
    }
}
