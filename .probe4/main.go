// probe4 prints the class, severity and reason of each stdin line.
package main

import (
	"bufio"
	"fmt"
	"os"

	"sandtrap/triage"
)

func main() {
	c := triage.NewClassifier(nil)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		cl := c.Classify(triage.Failure{Status: "failed", Error: sc.Text(), Target: "code-interpreter", Domain: os.Getenv("DOMAIN")})
		sev, why := triage.Severity(cl.Layer, cl.Primitive, cl.Signature)
		fmt.Printf("%s/%s %s | %s | %v\n", cl.Layer, cl.Primitive, cl.By, sev, why)
	}
}
