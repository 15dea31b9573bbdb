//! The Native service: Compute's downstream request goes through the core's driver, with
//! hostcalls as its I/O. Body reads and the HTTP effect wait with `async_io.select` timeouts, never
//! a blocking call, so the core's deadline holds; the reply goes out as the core built it.
use std::time::Instant;

use pulse_core::authorization::INTROSPECTION_MAX_BYTES;
use pulse_core::config::{ConfigError, Secret};
use pulse_core::driver::{self, BodyRead, HostIo, HttpRead};
use pulse_core::effect::{CacheEntry, RateAnswer, RateEffect, RateOp};
use pulse_core::event::Timings;
use pulse_core::{Engine, HandlerEffect, HttpEffect, HttpFailure, Reply};

use crate::fastly::{self, Handle};
use crate::uri::{authority, request_target};

/// The longest single select; longer waits re-arm.
const MAX_WAIT_MS: f64 = 60_000.0;

/// The engine built at pre-initialization (one instance serves one request: no sharing).
static mut PREBUILT: Option<Engine> = None;

pub fn prebuild(config: &[u8]) -> Result<(), ConfigError> {
    let engine = Engine::new(config)?;
    // SAFETY: wasm32 here is single-threaded and nothing else holds a reference to PREBUILT.
    unsafe { PREBUILT = Some(engine) };
    Ok(())
}

pub fn run() {
    fastly::init();
    let (req, body) = match fastly::downstream() {
        Ok(x) => x,
        Err(_) => return,
    };
    // SAFETY: as in `prebuild`; this is the only reference taken, once per instance.
    let slot = unsafe { &mut *std::ptr::addr_of_mut!(PREBUILT) };
    // The engine stays in its static and is never dropped: the instance ends with the request, and
    // freeing the snapshot's blocks one by one would write to (and so copy) its pages for nothing.
    let engine = match slot {
        Some(e) => e,
        None => {
            eprintln!("pulse-edge: this binary has no configuration: build it with pulse-mcp build --wasm");
            return send(&Reply::internal_error());
        }
    };
    // The clock's origin, read before anything that takes time: here when the request event
    // reports its total time, before the first secret read, or else at the first backend call, cache
    // lookup or timed wait; never by a request that makes none (see `Compute::origin`).
    let mut started = engine.log_endpoint().map(|_| Instant::now());
    if let Err(why) = install_secrets(engine, &mut started) {
        // The log names the store and the key, never the secret; the client gets a bare 500.
        eprintln!("pulse-edge: {}", why);
        return send(&Reply::internal_error());
    }
    let head = (|| {
        let method = fastly::method(req)?;
        let target = request_target(&fastly::uri(req)?);
        Ok::<_, fastly::Status>((method, target, fastly::header_lines(req)?))
    })();
    let reply = match head {
        Ok((method, target, lines)) => {
            let mut io = Compute {
                started,
                req,
                clock: 0.0,
                body,
                left: declared_length(&lines),
                log: engine.log_endpoint(),
            };
            driver::drive(engine, &mut io, &method, &target, lines)
        }
        Err(_) => Reply::internal_error(),
    };
    send(&reply);
}

/// Reads the secrets the configuration names from Fastly's secret store, on every request: the
/// `requestState` key, the catalog-backed tools' backend token and the introspection client's secret
/// live there, never in the module or its snapshot. A read takes time: the clock's origin (`started`)
/// comes before the first.
fn install_secrets(engine: &mut Engine, started: &mut Option<Instant>) -> Result<(), String> {
    for which in Secret::ALL {
        let bytes = match engine.secret(which) {
            None => continue,
            Some(s) => {
                started.get_or_insert_with(Instant::now);
                fastly::secret(&s.store, &s.key, which.max_bytes() + 1).map_err(|status| {
                    format!(
                        "{}: secret store {:?}, key {:?}: not readable (fastly_status {})",
                        which.option(),
                        s.store,
                        s.key,
                        status.0
                    )
                })?
            }
        };
        engine.install_secret(which, &bytes)?;
    }
    Ok(())
}

/// The body's length when the head declares exactly one Content-Length of digits and no
/// Transfer-Encoding (which would frame the body instead); `None` otherwise.
fn declared_length(lines: &[(Vec<u8>, Vec<u8>)]) -> Option<u64> {
    let mut length = None;
    for (name, value) in lines {
        if name.eq_ignore_ascii_case(b"transfer-encoding") {
            return None;
        }
        if name.eq_ignore_ascii_case(b"content-length") {
            let digits = std::str::from_utf8(value)
                .ok()?
                .trim_matches(|c| c == ' ' || c == '\t');
            if length.is_some() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            length = Some(digits.parse::<u64>().ok()?);
        }
    }
    length
}

fn wait_ms(ms: f64) -> u32 {
    ms.min(MAX_WAIT_MS).ceil().max(1.0) as u32
}

struct Compute<'a> {
    /// The clock's origin, once read (`origin`, or the first reading).
    started: Option<Instant>,
    /// The downstream request, for the client's address.
    req: Handle,
    /// Milliseconds since `started` at the last reading. Each reading is a hostcall, so the clock is
    /// read around timed waits only (`ready_by`), where time passes; between them the guest runs
    /// for microseconds, which no deadline in milliseconds can tell apart.
    clock: f64,
    body: Handle,
    /// Body bytes still to come when the request declared a Content-Length: at 0 the body has
    /// ended, with no further readiness poll and read to see it (the platform frames the body by
    /// that length, so no byte follows). `None` (chunked, or no length) reads until a read of 0.
    left: Option<u64>,
    /// `fastlyLogEndpoint`: where the request event goes.
    log: Option<&'a str>,
}

impl Compute<'_> {
    /// Reads the clock's origin if the request has none yet: the guest's own work before it takes
    /// microseconds, which no deadline in milliseconds can tell apart.
    fn origin(&mut self) {
        self.started.get_or_insert_with(Instant::now);
    }

    fn read_clock(&mut self) -> f64 {
        let now = Instant::now();
        let origin = *self.started.get_or_insert(now);
        self.clock = now.duration_since(origin).as_secs_f64() * 1000.0;
        self.clock
    }

    /// Waits for `h` until `deadline`; false once the deadline passed first. A handle already ready
    /// (a request body that arrived with its head) needs no timed wait and no clock reading.
    fn ready_by(&mut self, h: Handle, deadline: f64) -> bool {
        if fastly::is_ready(h) == Ok(true) {
            return true;
        }
        loop {
            let left = deadline - self.read_clock();
            if left <= 0.0 {
                return false;
            }
            let ready = fastly::select(&[h], wait_ms(left));
            self.read_clock();
            match ready {
                Ok(Some(_)) | Err(_) => return true,
                Ok(None) => continue,
            }
        }
    }
}

impl HostIo for Compute<'_> {
    fn now(&mut self) -> f64 {
        self.clock
    }

    fn epoch_ms(&mut self) -> f64 {
        // WASI's realtime clock; a clock before 1970 means none worth trusting.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    }

    fn read_body(&mut self, buf: &mut [u8], wait: f64) -> BodyRead {
        if self.left == Some(0) {
            return BodyRead::End;
        }
        let deadline = self.now() + wait;
        if !self.ready_by(self.body, deadline) {
            return BodyRead::Waiting;
        }
        match fastly::body_read(self.body, buf) {
            Ok(0) => BodyRead::End,
            Ok(n) => {
                if let Some(left) = &mut self.left {
                    *left = left.saturating_sub(n as u64);
                }
                BodyRead::Data(n)
            }
            Err(_) => BodyRead::Failed,
        }
    }

    fn http(&mut self, effect: &HttpEffect, wait: f64, out: &mut Vec<u8>) -> HttpRead {
        self.origin();
        let deadline = self.now() + wait;
        let sent = (|| {
            let req = fastly::request_new()?;
            fastly::request_method_set(req, effect.method.as_str())?;
            fastly::request_uri_set(req, &effect.url)?;
            // Compute sends what the request holds: the Host header comes from the fixed URL.
            if let Some(a) = authority(&effect.url) {
                fastly::request_header_append(req, "host", a)?;
            }
            for (n, v) in &effect.headers {
                fastly::request_header_append(req, n, v)?;
            }
            let body = fastly::body_new()?;
            if let Some(b) = &effect.body {
                fastly::body_write_all(body, b)?;
            }
            fastly::send_async(req, body, &effect.backend)
        })();
        let pending = match sent {
            Ok(p) => p,
            Err(_) => return HttpRead::Failed(HttpFailure::Unreachable),
        };
        // An abandoned exchange is dropped with the instance; nothing waits on it.
        if !self.ready_by(pending, deadline) {
            return HttpRead::Failed(HttpFailure::TimedOut);
        }
        let (resp, body) = match fastly::pending_wait(pending) {
            Ok(x) => x,
            Err(_) => return HttpRead::Failed(HttpFailure::Unreachable),
        };
        let status = match fastly::response_status(resp) {
            Ok(s) => s,
            Err(_) => return HttpRead::Failed(HttpFailure::Unreachable),
        };
        let mut buf = vec![0u8; driver::CHUNK];
        while out.len() <= effect.max_bytes {
            if !self.ready_by(body, deadline) {
                return HttpRead::Failed(HttpFailure::TimedOut);
            }
            match fastly::body_read(body, &mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(_) => return HttpRead::Failed(HttpFailure::Unreachable),
            }
        }
        HttpRead::Response(status)
    }

    /// A Native service has no JavaScript: such handlers are refused at build time, and a
    /// manifest that still names one fails closed here.
    fn handler(&mut self, _: &HandlerEffect, _: f64, _: &mut Vec<u8>) -> bool {
        false
    }

    /// The introspection cache lives in Fastly's core cache (per POP); a failing cache is a miss.
    fn cache_lookup(&mut self, key: &str, value: &mut Vec<u8>) -> bool {
        self.origin();
        match fastly::cache_get(key.as_bytes(), INTROSPECTION_MAX_BYTES) {
            Some(v) => {
                value.extend_from_slice(&v);
                true
            }
            None => false,
        }
    }

    fn cache_store(&mut self, entry: &CacheEntry) {
        // Not kept: the next request asks the issuer again.
        let _ = fastly::cache_insert(entry.key.as_bytes(), &entry.value, entry.ttl_ms);
    }

    /// The TCP peer as Fastly reports it: the client itself, not a proxy's header.
    fn client_address(&mut self) -> Option<String> {
        fastly::client_address(self.req)
            .ok()
            .map(|ip| ip.to_string())
    }

    /// Fastly's Edge Rate Limiting: the penalty box first, then the count. Each hostcall answers
    /// from the POP's memory; a failing one is the core's `Failed` (the request is admitted).
    fn rate(&mut self, effect: &RateEffect) -> RateAnswer {
        let (rc, pb, entry) = (&effect.rate_counter, &effect.penalty_box, &effect.entry);
        let answer = match effect.op {
            RateOp::Count { window_s, charge } => (|| {
                if fastly::penaltybox_has(pb, entry)? {
                    return Ok(RateAnswer::Counted {
                        boxed: true,
                        count: 0,
                    });
                }
                if !charge {
                    return Ok(RateAnswer::Counted {
                        boxed: false,
                        count: 0,
                    });
                }
                fastly::ratecounter_increment(rc, entry)?;
                let count = fastly::ratecounter_count(rc, entry, window_s)?;
                Ok::<_, fastly::Status>(RateAnswer::Counted {
                    boxed: false,
                    count,
                })
            })(),
            RateOp::Penalize { ttl_s } => {
                fastly::penaltybox_add(pb, entry, ttl_s).map(|()| RateAnswer::Penalized)
            }
        };
        answer.unwrap_or(RateAnswer::Failed)
    }

    fn observing(&mut self) -> bool {
        self.log.is_some()
    }

    /// One write, one line: the event is one JSON object with no raw newline in it. A failure to
    /// log is dropped: the reply is the same either way.
    fn event(&mut self, core: &[u8], timings: &Timings) {
        let name = match self.log {
            Some(n) => n,
            None => return,
        };
        // The clock is read around waits only; one reading now gives the whole request its time.
        let timings = Timings {
            total_ms: self.read_clock().max(timings.total_ms),
            ..*timings
        };
        let mut line = Vec::with_capacity(core.len() + 128);
        timings.complete(core, "fastly-native", &mut line);
        if let Ok(endpoint) = fastly::log_endpoint(name) {
            let _ = fastly::log_write(endpoint, &line);
        }
    }
}

fn send(reply: &Reply) {
    let sent = (|| {
        let resp = fastly::response_new()?;
        fastly::response_status_set(resp, reply.status)?;
        for (n, v) in &reply.headers {
            fastly::response_header_append(resp, n.as_bytes(), v.as_bytes())?;
        }
        let b = fastly::body_new()?;
        fastly::body_write_all(b, &reply.body)?;
        // Framing is the platform's: an early reply simply leaves the rest of the body unread.
        fastly::send_downstream(resp, b)
    })();
    if sent.is_err() && *reply != Reply::internal_error() {
        send(&Reply::internal_error());
    }
}
