package alert

import (
	"math/rand/v2"
	"time"
)

// Retry policy of the alerts' outbox. Alerts are worth less the later they
// come, so the waits are shorter than filing's and the outbox gives up
// sooner.
const (
	MaxAttempts   = 8
	firstBackoff  = 15 * time.Second
	maxBackoff    = 10 * time.Minute
	maxRetryAfter = time.Hour // the longest a receiver can make the outbox wait
)

// RetryAfter says whether a send that failed on its attempt-th try (from 1)
// is tried again, and after how long. A temporary failure (429, 5xx, a
// timeout, an unreachable receiver) waits 15 s, 30 s, 1 min, … up to
// 10 min, each drawn between half and all of that so that pending sends do
// not all wake at once; a receiver's longer Retry-After is honoured, up to
// an hour. A refusal is not retried: trying again cannot help until a
// person acts. After MaxAttempts tries the send gives up.
func RetryAfter(attempt int, temporary bool, asked time.Duration) (wait time.Duration, retry bool) {
	if !temporary || attempt >= MaxAttempts {
		return 0, false
	}
	base := min(firstBackoff<<(max(attempt, 1)-1), maxBackoff)
	wait = base/2 + rand.N(base/2+1)
	if asked > wait {
		wait = min(asked, maxRetryAfter)
	}
	return wait, true
}
