// probe classifies each stdin record (one error per line, \n escaped as ⏎).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"sandtrap/triage"
)

func main() {
	c := triage.NewClassifier(nil)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		e := strings.ReplaceAll(sc.Text(), "⏎", "\n")
		cl := c.Classify(triage.Failure{Status: "failed", Error: e})
		fmt.Printf("%s/%s\t%s\t%s\n", cl.Layer, cl.Primitive, cl.By, cl.Signature)
	}
}
