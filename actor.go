package sandtrap

import "context"

// Identities that are not a person's name.
const (
	// ActorToken is whoever carried the access token, when no
	// authenticating proxy names them. The token's value is never a name.
	ActorToken = "token"
	// ActorLocal is whoever reached a loopback server that has no token.
	ActorLocal = "local"
	// ActorSandtrap is sandtrap itself, acting on its own: reopening the
	// ticket of a mode that came back, carrying decisions over an upgrade.
	ActorSandtrap = "sandtrap"
)

type actorKey struct{}

// WithActor returns a copy of ctx in which name makes the decisions: the
// store records it beside each one.
func WithActor(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, actorKey{}, name)
}

// Actor returns who acts in ctx, or ActorSandtrap when no one was named:
// then sandtrap itself acts.
func Actor(ctx context.Context) string {
	if name, ok := ctx.Value(actorKey{}).(string); ok && name != "" {
		return name
	}
	return ActorSandtrap
}
