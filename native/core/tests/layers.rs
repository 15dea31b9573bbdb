//! The core's modules form a layered graph: no module reaches, directly or through others, back to
//! itself. Edges come from `crate::…` and `super::…` paths in the non-test code of each source file;
//! a directory module's own re-exports of its children are its facade, not a dependency.
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The one cycle kept on purpose: a JSON value prints itself through the writer, and the writer
/// walks values.
const ALLOWED: &[&[&str]] = &[&["json::document", "json::write"]];

type Graph = BTreeMap<String, BTreeSet<String>>;

fn sources(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            sources(&path, &format!("{prefix}{stem}::"), out);
        } else if path.extension() == Some("rs".as_ref()) {
            let name = match (prefix, stem.as_str()) {
                ("", "lib") => String::new(),
                (p, "mod") => p.trim_end_matches("::").to_string(),
                (p, s) => format!("{p}{s}"),
            };
            out.push((name, fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The text without comments and without items marked `#[cfg(test)]` (rustfmt closes a top-level
/// item with a `}` in column 0).
fn production(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_start() == "#[cfg(test)]" && !line.starts_with(' ') {
            for item in lines.by_ref() {
                if item.ends_with(';') && !item.starts_with(' ') || item == "}" || item == "};" {
                    break;
                }
            }
            continue;
        }
        let code = line.split("//").next().unwrap();
        out.push_str(code);
        out.push('\n');
    }
    out
}

fn ident(s: &str) -> usize {
    s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len())
}

/// Each path written after `anchor` (`crate::` or `super::`), with `{a, b::c}` groups expanded to
/// their first segments.
fn paths(code: &str, anchor: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices(anchor) {
        let before = code[..at].chars().last();
        if matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = &code[at + anchor.len()..];
        let mut segments = Vec::new();
        loop {
            let n = ident(rest);
            if n == 0 {
                break;
            }
            segments.push(rest[..n].to_string());
            rest = &rest[n..];
            if !rest.starts_with("::") {
                break;
            }
            rest = &rest[2..];
        }
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut item, mut items) = (0, String::new(), Vec::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ => item.push(c),
                }
            }
            items.push(item);
            for item in items {
                let item = item.trim();
                let first = &item[..ident(item)];
                if !first.is_empty() && first != "self" {
                    let mut p = segments.clone();
                    p.push(first.to_string());
                    found.push(p);
                }
            }
            found.push(segments);
        } else {
            found.push(segments);
        }
    }
    found
}

fn graph() -> Graph {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        "",
        &mut files,
    );
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    // What lib.rs re-exports at the root, item → home module.
    let mut root = BTreeMap::new();
    for (m, text) in &files {
        if m.is_empty() {
            for p in paths(
                &production(text).replace("pub use ", "pub use crate::"),
                "crate::",
            ) {
                if p.len() == 2 && modules.contains(&p[0]) {
                    root.insert(p[1].clone(), p[0].clone());
                }
            }
        }
    }
    let resolve = |base: Vec<String>| -> Option<String> {
        (1..=base.len())
            .rev()
            .map(|n| base[..n].join("::"))
            .find(|m| modules.contains(m))
            .or_else(|| base.first().and_then(|f| root.get(f).cloned()))
    };
    let mut g = Graph::new();
    for (m, text) in &files {
        if m.is_empty() {
            continue;
        }
        let code = production(text);
        let parent: Vec<String> = m.split("::").map(String::from).collect();
        let parent = &parent[..parent.len() - 1];
        let mut targets: Vec<Vec<String>> = paths(&code, "crate::");
        for p in paths(&code, "super::") {
            targets.push(parent.iter().cloned().chain(p).collect());
        }
        let deps = g.entry(m.clone()).or_default();
        for t in targets {
            if let Some(t) = resolve(t) {
                let child_of_m = t.starts_with(&format!("{m}::"));
                if t != *m && !child_of_m {
                    deps.insert(t);
                }
            }
        }
    }
    g
}

/// Strongly connected components with more than one module (Tarjan).
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct Walk<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        for u in w.g.get(v).into_iter().flatten() {
            let u = u.as_str();
            if !w.index.contains_key(u) {
                visit(w, u);
                let l = w.low[u].min(w.low[v]);
                w.low.insert(v, l);
            } else if w.stack.contains(&u) {
                let l = w.index[u].min(w.low[v]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut scc = Vec::new();
            loop {
                let u = w.stack.pop().unwrap();
                scc.push(u.to_string());
                if u == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                w.out.push(scc);
            }
        }
    }
    let mut w = Walk {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.out
}

#[test]
fn the_scan_sees_the_edges() {
    let g = graph();
    assert!(g["engine"].contains("config"), "{:?}", g["engine"]);
    assert!(g["json::write"].contains("json::document"));
    assert!(g["json::parser"].contains("json"));
    assert!(!g["json"].contains("json::parser"), "a facade's re-export");
    assert_eq!(
        cycles(&g).len(),
        1,
        "the allowed pair is found: {:?}",
        cycles(&g)
    );
}

#[test]
fn the_module_graph_has_no_cycle_but_the_allowed_pair() {
    let g = graph();
    let mut report = String::new();
    for scc in cycles(&g) {
        if ALLOWED.iter().any(|a| *a == scc.as_slice()) {
            continue;
        }
        report.push_str(&format!(
            "cycle of {} modules: {}\n",
            scc.len(),
            scc.join(", ")
        ));
        for m in &scc {
            let inner: Vec<&str> = g[m]
                .iter()
                .filter(|d| scc.contains(d))
                .map(String::as_str)
                .collect();
            report.push_str(&format!("  {m} -> {}\n", inner.join(", ")));
        }
    }
    assert!(report.is_empty(), "\n{report}");
}
