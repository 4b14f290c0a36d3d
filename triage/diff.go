package triage

// Segment is a run of a sample's text that either varies between the
// samples or is the same in all of them.
type Segment struct {
	Text   string
	Varies bool
}

// maxDiffTokens bounds the token-level comparison; past it a sample's tail
// is one varying segment, to keep the quadratic alignment cheap.
const maxDiffTokens = 512

// Diff marks what varies between samples of one failure mode, for
// highlighting. Each sample is cut into words, numbers, spaces and
// punctuation, and aligned with the first sample (longest common
// subsequence); a token is constant when it lines up with a token of the
// first sample that lines up in every other sample too. It returns, per
// sample, the segments in order; they concatenate to the sample. A single
// sample has nothing to compare with and comes back as one constant segment.
func Diff(samples []string) [][]Segment {
	out := make([][]Segment, len(samples))
	if len(samples) == 0 {
		return out
	}
	tokens := make([][]string, len(samples))
	for i, s := range samples {
		tokens[i] = tokenize(s)
	}
	ref := tokens[0]
	refStable := make([]bool, len(ref))
	for k := range refStable {
		refStable[k] = k < maxDiffTokens
	}
	// matches[i][k] is the index of ref's token that sample i's token k lines
	// up with, or -1.
	matches := make([][]int, len(samples))
	for i := 1; i < len(samples); i++ {
		m, refMatched := align(ref, tokens[i])
		matches[i] = m
		for k := range refStable {
			refStable[k] = refStable[k] && refMatched[k]
		}
	}
	out[0] = segments(samples[0], ref, func(k int) bool { return !refStable[k] })
	for i := 1; i < len(samples); i++ {
		m := matches[i]
		out[i] = segments(samples[i], tokens[i], func(k int) bool { return m[k] < 0 || !refStable[m[k]] })
	}
	return out
}

// align lines b up with a by longest common subsequence and returns, for
// each token of b, the index of its partner in a or -1, and which tokens of
// a have a partner.
func align(a, b []string) (bMatch []int, aMatched []bool) {
	bMatch = make([]int, len(b))
	for k := range bMatch {
		bMatch[k] = -1
	}
	aMatched = make([]bool, len(a))
	n, m := min(len(a), maxDiffTokens), min(len(b), maxDiffTokens)
	// lcs[x][y] is the LCS length of a[x:n] and b[y:m].
	lcs := make([][]int32, n+1)
	for x := range lcs {
		lcs[x] = make([]int32, m+1)
	}
	for x := n - 1; x >= 0; x-- {
		for y := m - 1; y >= 0; y-- {
			if a[x] == b[y] {
				lcs[x][y] = lcs[x+1][y+1] + 1
			} else {
				lcs[x][y] = max(lcs[x+1][y], lcs[x][y+1])
			}
		}
	}
	for x, y := 0, 0; x < n && y < m; {
		switch {
		case a[x] == b[y]:
			bMatch[y], aMatched[x] = x, true
			x++
			y++
		case lcs[x+1][y] >= lcs[x][y+1]:
			x++
		default:
			y++
		}
	}
	return bMatch, aMatched
}

// segments merges consecutive tokens of s with the same varies flag.
func segments(s string, tokens []string, varies func(k int) bool) []Segment {
	var segs []Segment
	start, pos := 0, 0
	for k, tok := range tokens {
		if k > 0 && varies(k) != varies(k-1) {
			segs = append(segs, Segment{Text: s[start:pos], Varies: varies(k - 1)})
			start = pos
		}
		pos += len(tok)
	}
	if len(tokens) > 0 {
		segs = append(segs, Segment{Text: s[start:pos], Varies: varies(len(tokens) - 1)})
	}
	return segs
}

// tokenize cuts s into runs of word bytes, runs of spaces, and single other
// bytes (whole UTF-8 sequences), so that the tokens concatenate to s.
func tokenize(s string) []string {
	var tokens []string
	for i := 0; i < len(s); {
		j := i + 1
		switch c := s[i]; {
		case isWordByte(c):
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
		case isSpace(c):
			for j < len(s) && isSpace(s[j]) {
				j++
			}
		case c >= 0x80:
			for j < len(s) && s[j]&0xc0 == 0x80 {
				j++
			}
		}
		tokens = append(tokens, s[i:j])
		i = j
	}
	return tokens
}
