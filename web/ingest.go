package main

import (
	"fmt"
	"strconv"
	"strings"
)

// byteSize is a flag's size in bytes, written as a number of bytes or with
// a KiB, MiB or GiB suffix.
type byteSize int64

var byteUnits = []struct {
	suffix string
	size   int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}

func (b *byteSize) String() string {
	for _, u := range byteUnits {
		if *b != 0 && int64(*b)%u.size == 0 {
			return fmt.Sprintf("%d%s", int64(*b)/u.size, u.suffix)
		}
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	num, unit := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, unit = strings.TrimSpace(n), u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/unit {
		return fmt.Errorf("%q is not a size like 32MiB, 512KiB or 1048576", s)
	}
	*b = byteSize(n * unit)
	return nil
}
