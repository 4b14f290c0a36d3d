package logview

import "testing"

func TestRedactCutsEveryCredentialAndKeepsWhatToRotate(t *testing.T) {
	tests := []struct {
		name, text, want string
		wantCount        int
	}{
		{"a token in a query keeps its key",
			"GET /notes?fields=id&token=71eccadd12daed9732c94078248b715db0aea258 failed",
			"GET /notes?fields=id&token=[redacted] failed", 1},
		{"a URL's key parameter is an API key",
			"401 Client Error: Unauthorized for url: https://proxycheck.io/v2/90.220.128.98?key=sk_live_REAL_API_KEY_9f3a2b",
			"401 Client Error: Unauthorized for url: https://proxycheck.io/v2/90.220.128.98?key=[redacted]", 1},
		{"a Google key given to an API call is its key",
			"403 Client Error: Forbidden for url: https://texttospeech.googleapis.com/v1/text:synthesize?key=AIzaSyC8fJ3kQ2mN7pL0vX9wR4tY6uZ1bE5dH3g",
			"403 Client Error: Forbidden for url: https://texttospeech.googleapis.com/v1/text:synthesize?key=[redacted]", 1},
		{"a Google key in the script a page loads is published",
			"https://maps.googleapis.com/maps/api/js?key=AIzaSyBukfGfN2Ayd_LgVqjEGEtJneT-D-r4Zv4 - Failed to load resource",
			"https://maps.googleapis.com/maps/api/js?key=AIzaSyBukfGfN2Ayd_LgVqjEGEtJneT-D-r4Zv4 - Failed to load resource", 0},
		{"a key that is no URL's parameter is a name",
			"cache miss: key=build-cache-linux-x64-3f2a9c0b1d2e3f40 restored 0 files",
			"cache miss: key=build-cache-linux-x64-3f2a9c0b1d2e3f40 restored 0 files", 0},
		{"a GitHub token keeps its prefix",
			"could not read from https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/x/y",
			"could not read from https://ghp_[redacted]@github.com/x/y", 1},
		{"a fine-grained GitHub token keeps its whole prefix",
			"?token=github_pat_11AAW3UWA0bwxQuF0gRJw1_QdrR6rlFh5nK4ZU0gT0bIGm",
			"?token=github_pat_[redacted]", 1},
		{"a bearer token keeps the scheme",
			"Authorization: Bearer eyJhbGciOi1JIUzI1NiJ9abcdef0123456789 rejected",
			"Authorization: Bearer [redacted] rejected", 1},
		{"a URL's password and a connection string's are both cut",
			"https://ci:supers3cret@pypi.example.com and host=db password=AbMvKXy4J54JPK sslmode=disable",
			"https://ci:[redacted]@pypi.example.com and host=db password=[redacted] sslmode=disable", 2},
		{"a hexadecimal token as a URL's password is cut though it holds no digit",
			"fatal: unable to access 'https://oauth2:deadbeefdeadbeefdeadbeefdeadbeefdeadbeef@github.com/o/r.git/'",
			"fatal: unable to access 'https://oauth2:[redacted]@github.com/o/r.git/'", 1},
		{"a word as a URL's password is still its password",
			"Looking in indexes: https://user:password@repo.domain.com/",
			"Looking in indexes: https://user:[redacted]@repo.domain.com/", 1},
		{"a URL's password that a tool masked is left as it was",
			"Downloading http://joebloggs:****@someurl.com/my-requirement.whl (12 kB)",
			"Downloading http://joebloggs:****@someurl.com/my-requirement.whl (12 kB)", 0},
		{"a token in a URL's user place is cut",
			"To https://95fb272798b152e9ca05fcfba45acd90e72dd24a@github.com/anishkny/realworld-e2e-test",
			"To https://[redacted]@github.com/anishkny/realworld-e2e-test", 1},
		{"a token before x-oauth-basic is cut",
			"Updating reference -> https://9f1c2e7a4b8d3f6e0a5c:x-oauth-basic@github.com/o/r",
			"Updating reference -> https://[redacted]:x-oauth-basic@github.com/o/r", 1},
		{"a Telegram bot's token in its API's path is cut",
			"HTTP Request: POST https://api.telegram.org/bot7312:AAFy2pmOMEgqLEwX2_i2s_F8iLSshDmJB5M/getFile",
			"HTTP Request: POST https://api.telegram.org/bot7312:[redacted]/getFile", 1},
		{"a private key's body is cut and its header kept",
			"actor has keys : -----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAieSa7HyuKYKDU6rSGPXzRYffKWCp5t4QARSw3BNe -----END RSA PRIVATE KEY-----",
			"actor has keys : -----BEGIN RSA PRIVATE KEY----- [redacted] -----END RSA PRIVATE KEY-----", 1},
		{"a Vault token keeps its prefix",
			"Unexpected char 0x0a at 95 in X-Vault-Token value: hvs.CAESIGm4xTQ2b0pZkNq7WcS1rV3aLh8eYuJ0dFfK5pXo9iBnGh4",
			"Unexpected char 0x0a at 95 in X-Vault-Token value: hvs.[redacted]", 1},
		{"a token in an environment variable's assignment is cut, a reference to one is not",
			"+ echo GITHUB_TOKEN=ImTheToken + echo NPM_TOKEN=$NPM_TOKEN",
			"+ echo GITHUB_TOKEN=[redacted] + echo NPM_TOKEN=$NPM_TOKEN", 1},
		{"an Authorization header's Basic credentials are cut",
			"[DEBUG] http-outgoing-4 >> Authorization: Basic Y2FtZXJvbmJyYWlkOnphTFd6UmwzREluN0Rk",
			"[DEBUG] http-outgoing-4 >> Authorization: Basic [redacted]", 1},
		{"Basic authentication named in prose is no credential",
			"HTTP Basic authentication failed for the registry",
			"HTTP Basic authentication failed for the registry", 0},
		{"a keystore's passwords on a command line are cut",
			"Jar signing with following options: {alias=upload, storepass=android123, keystore=/tmp/upload.jks, keypass=android123}",
			"Jar signing with following options: {alias=upload, storepass=[redacted], keystore=/tmp/upload.jks, keypass=[redacted]}", 2},
		{"a token after a colon and a space is cut",
			"WebSocket error for token: 4d0d676f5b0041bf7bae53f04e1d9fc631b31c25 - Unexpected server response: 401",
			"WebSocket error for token: [redacted] - Unexpected server response: 401", 1},
		{"a word after a token's colon is not a token",
			"auth failed for token: expired_or_revoked_now",
			"auth failed for token: expired_or_revoked_now", 0},
		{"an Infura node URL keeps its path and loses its project key",
			`missing response (url="https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161", code=SERVER_ERROR)`,
			`missing response (url="https://mainnet.infura.io/v3/[redacted]", code=SERVER_ERROR)`, 1},
		{"an Alchemy node URL keeps its path and loses its key",
			"HTTPError: 429 for url: https://eth-mainnet.g.alchemy.com/v2/Xk3bP9_qLm2ZtR8vWc4nYd7 ",
			"HTTPError: 429 for url: https://eth-mainnet.g.alchemy.com/v2/[redacted] ", 1},
		{"an error without a credential is left as it was",
			"FATAL: password: incorrect for user analyst",
			"FATAL: password: incorrect for user analyst", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact(tt.text)
			if got != tt.want || n != tt.wantCount {
				t.Errorf("got %q (%d), want %q (%d)", got, n, tt.want, tt.wantCount)
			}
		})
	}
}
