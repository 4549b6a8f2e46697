// GitHub signs each delivery with the webhook secret (X-Hub-Signature-256: `sha256=` + HMAC-SHA256 of
// the body). Checked here, before @octokit/webhooks sees the delivery, so that a delivery with a bad
// signature is refused with one log line: the library would log it twice, with its payload.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signatureMatches(secret: string, body: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
