package handlers

import "sandtrap"

// emptyFilter is every failure of a run.
var emptyFilter = sandtrap.ResultFilter{}
