package alert

import "time"

// States of a send in the outbox.
const (
	StatePending = "pending" // waiting for its time
	StateSending = "sending" // claimed for a call to the receiver
	StateSent    = "sent"
	StateFailed  = "failed" // given up
)

// Send is one alert in the outbox: its key, what it says, and how its
// delivery has gone.
type Send struct {
	ID int64
	Key
	Message   Message
	State     string
	Attempts  int
	NextAt    time.Time
	LastError string
	UpdatedAt time.Time
}
