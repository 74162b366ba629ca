//! The client address the limits count against. A request from a configured trusted
//! proxy names its client in `X-Forwarded-For`; the rightmost address there that is
//! not itself a trusted proxy is the client. From anyone else the header is ignored,
//! so a client cannot choose its own address.

use std::net::IpAddr;

use axum::http::HeaderMap;

/// The address to count a request against: the peer, or, when the peer is a trusted
/// proxy, the client it names.
pub fn client_addr(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .map(|hop| hop.parse::<IpAddr>().ok())
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default();
    hops.into_iter()
        .rev()
        .find(|ip| !trusted.contains(ip))
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("ip")
    }

    fn xff(v: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", HeaderValue::from_static(v));
        h
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy = ip("10.0.0.1");
        let h = xff("203.0.113.9");
        assert_eq!(client_addr(proxy, &h, &[proxy]), ip("203.0.113.9"));
        assert_eq!(client_addr(ip("10.0.0.2"), &h, &[proxy]), ip("10.0.0.2"));
        assert_eq!(client_addr(proxy, &HeaderMap::new(), &[proxy]), proxy);
    }

    #[test]
    fn the_rightmost_untrusted_hop_counts() {
        let proxy = ip("10.0.0.1");
        let inner = ip("10.0.0.5");
        let h = xff("1.2.3.4, 203.0.113.9, 10.0.0.5");
        assert_eq!(client_addr(proxy, &h, &[proxy, inner]), ip("203.0.113.9"));
        assert_eq!(client_addr(proxy, &xff("not an ip"), &[proxy]), proxy);
    }
}
