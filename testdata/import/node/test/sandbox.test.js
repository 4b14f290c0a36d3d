// Tests that sandtrap's import tests run with mocha and the CTRF reporter:
// one passes, one fails, one is pending, one passes on its second try, and
// one names its target and domain.
const assert = require('node:assert');
const { extra } = require('mocha-ctrf-json-reporter/runtime');

describe('sandbox', function () {
  it('writes a file', function () {
    assert.strictEqual(1 + 1, 2);
  });

  it('reads the file back', function () {
    assert.strictEqual('h\u00e9llo', 'hello', 'round trip changed the text');
  });

  it.skip('installs a package', function () {});

  let tries = 0;
  it('reaches the network on a retry', function () {
    this.retries(2);
    tries++;
    assert.ok(tries > 1, 'connection reset');
  });

  it('opens a page', function () {
    extra({ target: 'browser', domain: 'web-browsing', layer: 'sandbox', primitive: 'network-egress' });
    throw new Error('net::ERR_CONNECTION_REFUSED');
  });
});
