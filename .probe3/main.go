// probe3 classifies one labelled record by id from a set file.
package main

import (
	"fmt"
	"os"

	"sandtrap/eval"
	"sandtrap/triage"
)

func main() {
	recs, err := eval.LoadRecords(os.Args[1])
	if err != nil {
		panic(err)
	}
	c := triage.NewClassifier(nil)
	for _, r := range recs {
		if r.ID != os.Args[2] {
			continue
		}
		f := r.Failure()
		cl := c.Classify(f)
		fmt.Printf("%s/%s by %s\nsig %q\ncause %q\n", cl.Layer, cl.Primitive, cl.By, cl.Signature, cl.Cause)
	}
}
