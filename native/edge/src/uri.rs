//! URL pieces Compute and the core disagree on: Compute hands the guest an absolute URL where the
//! core wants the raw path plus query, and a backend request needs the Host of its fixed URL.

/// The path plus query of an absolute URL (an origin-form target is returned as it is).
pub fn request_target(uri: &[u8]) -> Vec<u8> {
    let rest = match uri.windows(3).position(|w| w == b"://") {
        Some(i) => &uri[i + 3..],
        None => return uri.to_vec(),
    };
    match rest.iter().position(|&b| b == b'/' || b == b'?') {
        Some(j) if rest[j] == b'/' => rest[j..].to_vec(),
        Some(j) => [&b"/"[..], &rest[j..]].concat(),
        None => b"/".to_vec(),
    }
}

/// The authority (`host[:port]`) of an absolute URL.
pub fn authority(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(&['/', '?', '#'][..]).unwrap_or(rest.len());
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_is_path_and_query() {
        assert_eq!(
            request_target(b"http://127.0.0.1:7676/mcp?x=1"),
            b"/mcp?x=1"
        );
        assert_eq!(request_target(b"https://h.example"), b"/");
        assert_eq!(request_target(b"https://h.example?q"), b"/?q");
        assert_eq!(request_target(b"/raw"), b"/raw");
    }

    #[test]
    fn authority_of_fixed_urls() {
        assert_eq!(
            authority("https://a.example:8443/x?y"),
            Some("a.example:8443")
        );
        assert_eq!(authority("http://127.0.0.1"), Some("127.0.0.1"));
        assert_eq!(authority("relative"), None);
    }
}
