//! The request event through the Rust driver: a host that observes gets the core's event once per
//! request with the timings the driver measured, completed with its target; one that does not is
//! never asked.
use pulse_core::driver::{drive, BodyRead, HostIo, HttpRead};
use pulse_core::effect::{HandlerEffect, HttpEffect, HttpFailure, RateAnswer, RateEffect};
use pulse_core::engine::Engine;
use pulse_core::event::Timings;

struct Host {
    clock: f64,
    body: Vec<u8>,
    sent: bool,
    observing: bool,
    events: Vec<String>,
}

impl HostIo for Host {
    fn now(&mut self) -> f64 {
        self.clock
    }
    fn epoch_ms(&mut self) -> f64 {
        1_780_000_000_000.0
    }
    fn read_body(&mut self, buf: &mut [u8], _: f64) -> BodyRead {
        self.clock += 2.5;
        if self.sent {
            return BodyRead::End;
        }
        self.sent = true;
        buf[..self.body.len()].copy_from_slice(&self.body);
        BodyRead::Data(self.body.len())
    }
    fn http(&mut self, _: &HttpEffect, _: f64, _: &mut Vec<u8>) -> HttpRead {
        HttpRead::Failed(HttpFailure::Unreachable)
    }
    fn handler(&mut self, _: &HandlerEffect, _: f64, _: &mut Vec<u8>) -> bool {
        false
    }
    fn rate(&mut self, _: &RateEffect) -> RateAnswer {
        unreachable!("no rate limit is configured")
    }
    fn observing(&mut self) -> bool {
        self.observing
    }
    fn event(&mut self, core: &[u8], timings: &Timings) {
        let mut out = Vec::new();
        timings.complete(core, "fastly-native", &mut out);
        self.events.push(String::from_utf8(out).unwrap());
    }
}

const HEADERS: [(&str, &str); 4] = [
    ("accept", "application/json, text/event-stream"),
    ("content-type", "application/json"),
    ("mcp-protocol-version", "2026-07-28"),
    ("mcp-method", "server/discover"),
];

fn host(observing: bool) -> Host {
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#;
    Host {
        clock: 0.0,
        body: body.to_vec(),
        sent: false,
        observing,
        events: Vec::new(),
    }
}

#[test]
fn an_observing_host_gets_one_event_with_its_timings() {
    let engine = Engine::new(br#"{"serverInfo":{"name":"t","version":"1"}}"#).unwrap();
    let mut io = host(true);
    let reply = drive(&engine, &mut io, b"POST", b"/mcp", HEADERS);
    assert_eq!(reply.status, 200);
    let want = format!(
        concat!(
            r#"{{"method":"server/discover","requestId":"1","name":null,"status":200,"code":null,"isError":null,"refusal":null,"#,
            r#""bytesIn":{},"bytesOut":{},"protocolVersion":"2026-07-28","sub":null,"#,
            r#""traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":null,"#,
            r#""bodyMs":5,"effectsMs":0,"coreMs":0,"totalMs":5,"target":"fastly-native"}}"#
        ),
        io.body.len(),
        reply.body.len()
    );
    assert_eq!(io.events, [want]);
}

#[test]
fn a_host_that_does_not_observe_gets_none() {
    let engine = Engine::new(br#"{"serverInfo":{"name":"t","version":"1"}}"#).unwrap();
    let mut io = host(false);
    assert_eq!(
        drive(&engine, &mut io, b"POST", b"/mcp", HEADERS).status,
        200
    );
    assert!(io.events.is_empty());
}
