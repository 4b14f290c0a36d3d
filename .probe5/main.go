// probe5 lists labelled messages the severity model alone rates critical.
package main

import (
	"fmt"
	"os"
	"strings"

	"sandtrap/eval"
	"sandtrap/triage"
)

func main() {
	c := triage.NewClassifier(nil)
	for _, p := range os.Args[1:] {
		recs, err := eval.LoadRecords(p)
		if err != nil {
			panic(err)
		}
		for _, r := range recs {
			if strings.Contains(r.Error, "\n") || len(r.Error) > 90 {
				continue
			}
			cl := c.Classify(triage.Failure{Status: "failed", Error: r.Error, Target: "code-interpreter", Domain: "session-lifecycle"})
			sev, why := triage.Severity(cl.Layer, cl.Primitive, cl.Signature)
			if sev == "critical" && strings.HasPrefix(why, "critical: reads like") {
				fmt.Printf("%s/%s\t%s\t%s\n", cl.Layer, cl.Primitive, why, r.Error)
			}
		}
	}
}
