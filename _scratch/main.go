package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sandtrap/demo"
	"sandtrap/store"
)

func main() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "cmp")
	path := filepath.Join(dir, "demo.db")
	if _, err := demo.Write(ctx, path, demo.Options{Seed: 1}); err != nil {
		panic(err)
	}
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(dir, "s.db"), Campaigns: []string{path}})
	if err != nil {
		panic(err)
	}
	st.Start(ctx)
	st.WaitIndexed(ctx)
	start := time.Now()
	c, err := st.Compare(ctx, "2026-06-30-overnight", "2026-07-01-overnight", 20)
	if err != nil {
		panic(err)
	}
	fmt.Println(time.Since(start))
	for name, g := range map[string][]any{} {
		_ = name
		_ = g
	}
	pr := func(name string, ms []compareMode) {}
	_ = pr
	for _, m := range c.New {
		fmt.Println("NEW", m.ID, m.Signature, m.BaseCount, m.HeadCount)
	}
	for _, m := range c.Resolved {
		fmt.Println("RESOLVED", m.ID, m.Signature, m.BaseCount, m.HeadCount)
	}
	for _, m := range c.Persisting {
		fmt.Println("PERSIST", m.ID, m.Signature, m.BaseCount, m.HeadCount)
	}
	fmt.Println("fixed", c.Fixed.Total, "regressed", c.Regressed.Total, "still", c.StillFailing.Total, "added", c.Added.Total, "removed", c.Removed.Total, "passing", c.StillPassing, "skipped", c.Skipped)
	for _, t := range c.Fixed.Tests {
		fmt.Println("  fixed", t.Key)
	}
	for _, t := range c.Regressed.Tests {
		fmt.Println("  regressed", t.Key)
	}
	for _, t := range c.Added.Tests[:3] {
		fmt.Println("  added", t.Key, t.Head.Last)
	}
	fmt.Println("flaky", c.FlakyTests.Total, len(c.FlakyModes))
	for _, m := range c.FlakyModes {
		fmt.Println("  flaky mode", m.ID, m.Why)
	}
	fmt.Printf("%+v\n", demo.Expected())
}

type compareMode struct{}
