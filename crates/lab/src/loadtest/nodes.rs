//! The servers a load run drives: several nodes of one site, each with its own counters,
//! and which node each client connects to.
//!
//! Tables are spread round-robin: the creator of pair `p` connects to node `p % nodes`,
//! so the tables (and their leases) are shared evenly. Without `--cross-node` the
//! joining player connects to the same node, so a table's moves stay on one node; with
//! it the joiner connects to the next node, so every move of the joiner travels over
//! the bus to the node running the table and the table's events travel back.

use std::net::SocketAddr;

use anyhow::{bail, Context};

use super::stats::Stats;

/// The most URLs one run drives.
pub const MAX_NODES: usize = 64;

/// One server of the run.
#[derive(Debug)]
pub struct Node {
    /// The HTTP base, e.g. `http://127.0.0.1:8080`.
    pub base: String,
    /// Its address (for the WebSocket's TCP connection).
    pub addr: SocketAddr,
    /// `ws://host:port/ws`.
    pub ws_url: String,
    /// The counters of the clients connected to it.
    pub stats: Stats,
}

/// The URLs of `--url` values, each of which may hold several separated by commas;
/// every one must be `http://…`, and there are 1 to [`MAX_NODES`] of them.
pub fn parse_urls(values: &[String]) -> anyhow::Result<Vec<String>> {
    let urls: Vec<String> = values
        .iter()
        .flat_map(|v| v.split(','))
        .map(|u| u.trim().trim_end_matches('/').to_owned())
        .filter(|u| !u.is_empty())
        .collect();
    if urls.is_empty() {
        bail!("--url names no server");
    }
    if urls.len() > MAX_NODES {
        bail!("--url names {} servers; at most {MAX_NODES}", urls.len());
    }
    for url in &urls {
        if !url.starts_with("http://") {
            bail!(
                "--url {url}: must start with http:// (the load test speaks plain HTTP and ws://)"
            );
        }
    }
    Ok(urls)
}

/// The node client `client` connects to, of `nodes`.
pub fn node_of(client: usize, nodes: usize, cross_node: bool) -> usize {
    let nodes = nodes.max(1);
    let creator = (client / 2) % nodes;
    if cross_node && client % 2 == 1 {
        (creator + 1) % nodes
    } else {
        creator
    }
}

/// `host:port` of an `http://` base URL (port 80 when it names none).
pub fn host_port(base: &str) -> anyhow::Result<String> {
    let rest = base
        .strip_prefix("http://")
        .with_context(|| format!("--url {base}: must start with http://"))?;
    let host_port = rest.split('/').next().unwrap_or(rest);
    if host_port.is_empty() {
        bail!("--url {base}: names no host");
    }
    Ok(if host_port.contains(':') && !host_port.ends_with(']') {
        host_port.to_owned()
    } else {
        format!("{host_port}:80")
    })
}

/// Resolves `base` into a node with empty counters.
pub async fn resolve(base: &str) -> anyhow::Result<Node> {
    let host_port = host_port(base)?;
    let addr = tokio::net::lookup_host(&host_port)
        .await
        .with_context(|| format!("cannot resolve {host_port}"))?
        .next()
        .with_context(|| format!("no address for {host_port}"))?;
    Ok(Node {
        base: base.to_owned(),
        addr,
        ws_url: format!("ws://{host_port}/ws"),
        stats: Stats::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| v.to_string()).collect()
    }

    #[test]
    fn urls_may_be_repeated_or_comma_separated() {
        let urls = parse_urls(&strings(&[
            "http://127.0.0.1:8080/,http://127.0.0.1:8081",
            " http://127.0.0.1:8082 ",
        ]))
        .unwrap();
        assert_eq!(
            urls,
            [
                "http://127.0.0.1:8080",
                "http://127.0.0.1:8081",
                "http://127.0.0.1:8082"
            ]
        );
    }

    #[test]
    fn bad_urls_are_named() {
        let err = parse_urls(&strings(&["http://a:1,https://b:2"])).unwrap_err();
        assert!(err.to_string().contains("--url https://b:2"), "{err}");
        assert!(parse_urls(&strings(&[","])).is_err());
        let many = vec!["http://h:1".to_owned(); MAX_NODES + 1];
        assert!(parse_urls(&many)
            .unwrap_err()
            .to_string()
            .contains("at most"));
    }

    #[test]
    fn host_and_port_come_from_the_url() {
        assert_eq!(
            host_port("http://127.0.0.1:8081").unwrap(),
            "127.0.0.1:8081"
        );
        assert_eq!(host_port("http://example.org/x").unwrap(), "example.org:80");
        assert_eq!(host_port("http://[::1]:9000").unwrap(), "[::1]:9000");
        assert_eq!(host_port("http://[::1]").unwrap(), "[::1]:80");
        assert!(host_port("http://").is_err());
    }

    #[test]
    fn clients_spread_round_robin_and_pairs_share_a_node() {
        let nodes: Vec<usize> = (0..12).map(|c| node_of(c, 3, false)).collect();
        assert_eq!(nodes, [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn cross_node_pairs_sit_on_two_nodes_and_every_node_gets_its_share() {
        for n in 2..=5 {
            let mut per_node = vec![0; n];
            let mut creators = vec![0; n];
            for pair in 0..(n * 10) {
                let (a, b) = (node_of(2 * pair, n, true), node_of(2 * pair + 1, n, true));
                assert_ne!(a, b, "pair {pair} of {n} nodes on one node");
                per_node[a] += 1;
                per_node[b] += 1;
                creators[a] += 1;
            }
            assert!(per_node.iter().all(|&c| c == 20), "{n} nodes: {per_node:?}");
            assert!(creators.iter().all(|&c| c == 10), "{n} nodes: {creators:?}");
        }
    }

    #[test]
    fn one_node_takes_every_client() {
        assert!((0..10).all(|c| node_of(c, 1, true) == 0 && node_of(c, 1, false) == 0));
    }
}
