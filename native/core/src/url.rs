//! The one reader of the absolute http(s) URLs a configuration names (allowed origins, backend URLs,
//! authorization-server URLs), and the one definition of a loopback host. Each use names its
//! [`Use`]; the syntax is the same strict form for all: visible ASCII, at most [`MAX_URL_BYTES`],
//! `scheme://host[:port][/path]` with a lowercase host, no credentials, query or fragment. Nothing is
//! normalised: the text is compared byte for byte later (origins, issuer), so it must already be in
//! the form a peer sends.

/// Bytes of any URL a configuration names.
pub const MAX_URL_BYTES: usize = 2048;

/// What a URL is for, and so which schemes and forms it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// An `allowedOrigins` entry: http or https to any host, exactly as a browser serializes it (no
    /// path, no default port).
    Origin,
    /// Where an outbound handler sends: https, or http to a loopback host.
    Backend,
    /// A URL of the authorization option: https, or http to a literal loopback IP only when
    /// `allowInsecureLoopback` is set. A name, `localhost` included, is whatever the resolver says,
    /// and an issuer's identity must not rest on that.
    AuthorizationServer { insecure_loopback: bool },
}

/// A URL its [`Use`] admits, split where the checks that follow need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub text: String,
    /// Where `scheme://authority` ends.
    authority_end: usize,
    pub https: bool,
    /// `[v6]` literals keep their brackets.
    pub host: String,
    pub port: Option<u16>,
}

impl Url {
    /// The text if `use_` admits it.
    pub fn parse(text: &str, use_: Use) -> Option<Url> {
        let u = syntax(text)?;
        let scheme_ok = match use_ {
            Use::Origin => true,
            Use::Backend => u.https || is_loopback(&u.host),
            Use::AuthorizationServer { insecure_loopback } => {
                u.https || insecure_loopback && is_loopback_ip(&u.host)
            }
        };
        // A browser's Origin header never carries a path or the scheme's default port.
        let origin_form = use_ != Use::Origin
            || u.path().is_empty() && u.port != Some(if u.https { 443 } else { 80 });
        (scheme_ok && origin_form).then_some(u)
    }

    /// `scheme://authority`, compared exactly.
    pub fn origin(&self) -> &str {
        &self.text[..self.authority_end]
    }

    /// Everything after the authority: empty or starting with `/`.
    pub fn path(&self) -> &str {
        &self.text[self.authority_end..]
    }
}

fn syntax(text: &str) -> Option<Url> {
    // `@` nowhere, so that no reader can take part of the URL for credentials.
    if text.len() > MAX_URL_BYTES
        || !text.bytes().all(|b| b > 0x20 && b < 0x7f)
        || text.contains(['@', '?', '#'])
    {
        return None;
    }
    let (https, rest) = match text.strip_prefix("https://") {
        Some(r) => (true, r),
        None => (false, text.strip_prefix("http://")?),
    };
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let close = v6.find(']')?;
            let literal = &v6[..close];
            let ok = literal.contains(':')
                && literal
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b':' | b'.'));
            if !ok {
                return None;
            }
            (&authority[..close + 2], &v6[close + 1..])
        }
        None => {
            let (h, p) = authority.split_at(authority.find(':').unwrap_or(authority.len()));
            let ok = !h.is_empty()
                && h.bytes()
                    .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_'));
            if !ok {
                return None;
            }
            (h, p)
        }
    };
    let port = match port.strip_prefix(':') {
        None if port.is_empty() => None,
        None => return None,
        Some(p) => Some(valid_port(p)?),
    };
    Some(Url {
        text: text.to_string(),
        authority_end: text.len() - rest.len() + authority.len(),
        https,
        host: host.to_string(),
        port,
    })
}

/// 1 to 65535 in canonical decimal: no sign, no leading zero (port 0 reaches nothing).
fn valid_port(p: &str) -> Option<u16> {
    let canonical =
        (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()) && !p.starts_with('0');
    canonical.then(|| p.parse::<u16>().ok()).flatten()
}

/// The W3C "potentially trustworthy" loopback hosts: `127.0.0.0/8` in canonical dotted quad, `[::1]`
/// and `localhost`, which RFC 6761 §6.3 reserves for loopback and current resolvers keep there.
/// Only these may be reached over plain http, where no certificate names the peer.
pub fn is_loopback(host: &str) -> bool {
    host == "localhost" || is_loopback_ip(host)
}

/// The literal loopback addresses: `127.0.0.0/8` in canonical dotted quad and `[::1]`.
pub fn is_loopback_ip(host: &str) -> bool {
    if host == "[::1]" {
        return true;
    }
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts[0] == "127"
        && parts.iter().all(|p| {
            (1..=3).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && matches!(p.parse::<u16>(), Ok(n) if n <= 255)
        })
}

/// [`Use::Backend`] as a JavaScript regular expression (`/` written `\x2f`, so it can be a
/// literal), for the TypeScript early check of declared backend URLs (generated into `src/core/generated/defaults.ts`); the shared URL cases hold both to
/// the same answers.
pub fn backend_pattern() -> String {
    let octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
    let port =
        "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})";
    let host = r"(?:[a-z0-9._-]+|\[[0-9a-f.]*:[0-9a-f:.]*\])";
    let loopback = format!(r"(?:localhost|\[::1\]|127(?:\.{octet}){{3}})");
    format!(
        r"^(?=[\x21-\x7e]{{1,{MAX_URL_BYTES}}}$)(?:https:\x2f\x2f{host}|http:\x2f\x2f{loopback})(?::{port})?(?:\x2f[^?#@]*)?$"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_origin_path_and_port() {
        let u = Url::parse(
            "https://a.example:8443/p/q",
            Use::AuthorizationServer {
                insecure_loopback: false,
            },
        )
        .unwrap();
        assert_eq!((u.origin(), u.path()), ("https://a.example:8443", "/p/q"));
        assert_eq!(
            (u.host.as_str(), u.port, u.https),
            ("a.example", Some(8443), true)
        );
        let v6 = Url::parse("http://[::1]:9/x", Use::Backend).unwrap();
        assert_eq!((v6.host.as_str(), v6.origin()), ("[::1]", "http://[::1]:9"));
    }

    #[test]
    fn loopback_hosts() {
        for h in [
            "127.0.0.1",
            "127.1.2.3",
            "127.255.255.255",
            "[::1]",
            "localhost",
        ] {
            assert!(is_loopback(h), "{h}");
        }
        for h in [
            "127.1",
            "127.0.0.01",
            "127.0.0.256",
            "128.0.0.1",
            "::1",
            "[::2]",
            "localhost.example",
            "127.0.0.1.example",
        ] {
            assert!(!is_loopback(h), "{h}");
        }
        assert!(!is_loopback_ip("localhost"));
        for h in ["127.0.0.1", "127.1.2.3", "[::1]"] {
            assert!(is_loopback_ip(h), "{h}");
        }
    }

    #[test]
    fn authorization_urls_take_literal_loopback_ips_only() {
        let insecure = Use::AuthorizationServer {
            insecure_loopback: true,
        };
        for ok in [
            "http://127.0.0.1:8080/mcp",
            "http://127.9.9.9",
            "http://[::1]:9/i",
        ] {
            assert!(Url::parse(ok, insecure).is_some(), "{ok}");
        }
        for refused in ["http://localhost:3000/mcp", "http://localhost"] {
            assert!(Url::parse(refused, insecure).is_none(), "{refused}");
            // A backend still reaches the name.
            assert!(Url::parse(refused, Use::Backend).is_some(), "{refused}");
        }
    }
}
