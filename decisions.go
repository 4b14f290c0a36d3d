package sandtrap

// Triage is one change to a failure mode's decision. Nil fields stay as
// they are.
type Triage struct {
	Layer, Primitive *string
	Severity         *string
	Title            *string
	Status           *string
	Owner            *string
}
