package triage

import (
	"testing"
	"time"
)

func TestOutagesFindBurstsOfManyKindsOfFailure(t *testing.T) {
	t0 := time.Date(2026, 7, 1, 2, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	calm := func(i int) Minute { return Minute{Start: at(i), Results: 20, Failures: 2, Modes: 2} }
	storm := func(i int) Minute { return Minute{Start: at(i), Results: 20, Failures: 15, Modes: 6} }
	tests := []struct {
		name    string
		minutes []Minute
		want    []Window
	}{
		{"a calm run has none", []Minute{calm(0), calm(1), calm(2)}, nil},
		{"consecutive stormy minutes are one window", []Minute{calm(0), storm(1), storm(2), calm(3)},
			[]Window{{Start: at(1), End: at(3), Results: 40, Failures: 30}}},
		{"a calm minute splits two windows", []Minute{storm(0), calm(1), storm(2)},
			[]Window{{Start: at(0), End: at(1), Results: 20, Failures: 15}, {Start: at(2), End: at(3), Results: 20, Failures: 15}}},
		{"a gap in time splits windows too", []Minute{storm(0), storm(5)},
			[]Window{{Start: at(0), End: at(1), Results: 20, Failures: 15}, {Start: at(5), End: at(6), Results: 20, Failures: 15}}},
		{"one mode failing a lot is a bug, not an outage", []Minute{{Start: at(0), Results: 20, Failures: 20, Modes: 1}}, nil},
		{"a handful of results is not enough to tell", []Minute{{Start: at(0), Results: 4, Failures: 4, Modes: 4}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Outages(tt.minutes)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d windows %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("got window %+v, want %+v", got[i], tt.want[i])
				}
			}
		})
	}
}
