package main

import (
	"fmt"
	"net/netip"
	"strings"
)

// proxyIdentity checks --auth-proxy-header and --trusted-proxy together
// and returns the proxies' prefixes. A header believed from any address
// would let every client name itself, so it needs the proxies; proxies
// without a header would be trusted for nothing.
func proxyIdentity(header, proxies string) ([]netip.Prefix, error) {
	switch {
	case header == "" && proxies == "":
		return nil, nil
	case proxies == "":
		return nil, fmt.Errorf("--auth-proxy-header %s needs --trusted-proxy CIDR, the addresses of the proxy that sets it: believed from anywhere, the header would let any client record decisions under any name", header)
	case header == "":
		return nil, fmt.Errorf("--trusted-proxy needs --auth-proxy-header, the header in which the proxy names who it let in (X-Forwarded-Email for oauth2-proxy)")
	}
	var out []netip.Prefix
	for _, s := range strings.Split(proxies, ",") {
		s = strings.TrimSpace(s)
		p, err := netip.ParsePrefix(s)
		if err != nil {
			addr, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("--trusted-proxy: %q is not an address or a CIDR like 10.0.0.0/8 or fd00::/8", s)
			}
			p = netip.PrefixFrom(addr, addr.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
