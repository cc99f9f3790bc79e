// Starts s3rver (tests/servers/package.json) on 127.0.0.1 for the
// remote-source tests, with a SigV4 check of our own in front of it: s3rver
// only checks that a V4 request names a known key, so this recomputes the
// signature (an independent implementation of the algorithm) and refuses
// any request whose signature does not match, as S3 would.
//
// Usage: node s3_server.js <storage dir> <bucket> [<seed dir>]
// Uploads every file under <seed dir> into <bucket> (key = relative path), then prints
// "PORT <n>". Credentials: access key S3RVER, secret S3RVER (s3rver's own).
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const path = require('path');
const S3rver = require('s3rver');

const [storage, bucket, seed] = process.argv.slice(2);
const SECRET = { S3RVER: 'S3RVER' };

function rfc3986(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function hmac(key, data) {
  return crypto.createHmac('sha256', key).update(data).digest();
}

// Returns null when the request is unsigned or correctly signed, else why not.
function signatureProblem(req) {
  const auth = req.headers['authorization'];
  if (!auth) return null;
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!match) return 'malformed Authorization header';
  const [, key, day, region, signedHeaders, signature] = match;
  if (!(key in SECRET)) return 'unknown access key';
  const date = req.headers['x-amz-date'] || '';
  if (date.slice(0, 8) !== day) return 'x-amz-date does not match the credential scope';
  const when = Date.UTC(+date.slice(0, 4), +date.slice(4, 6) - 1, +date.slice(6, 8), +date.slice(9, 11),
    +date.slice(11, 13), +date.slice(13, 15));
  if (!(Math.abs(Date.now() - when) < 15 * 60 * 1000)) return 'request time too skewed';
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'host and x-amz-date must be signed';
  const [rawPath, rawQuery = ''] = req.url.split('?');
  const query = rawQuery === '' ? [] : rawQuery.split('&').map(pair => {
    const [k, v = ''] = pair.split('=');
    return [rfc3986(decodeURIComponent(k)), rfc3986(decodeURIComponent(v))];
  });
  query.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  const canonicalHeaders = names.map(n => `${n}:${String(req.headers[n] || '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, rawPath, query.map(([k, v]) => `${k}=${v}`).join('&'), canonicalHeaders,
    signedHeaders, req.headers['x-amz-content-sha256'] || ''].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, crypto.createHash('sha256').update(canonical).digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac('AWS4' + SECRET[key], day), region), 's3'), 'aws4_request');
  const expected = hmac(signingKey, toSign).toString('hex');
  return expected === signature ? null : 'signature does not match';
}

async function main() {
  const server = new S3rver({ directory: storage, silent: true, configureBuckets: [{ name: bucket }] });
  await server.configureBuckets();
  const handle = server.callback();
  const httpServer = http.createServer((req, res) => {
    const problem = signatureProblem(req);
    if (problem) {
      const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`;
      res.writeHead(403, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    handle(req, res);
  });
  await new Promise(resolve => httpServer.listen(0, '127.0.0.1', resolve));
  const port = httpServer.address().port;
  if (seed) {
    // Every file under <seed>, keyed by its path relative to it.
    const files = [];
    const walk = dir => {
      for (const name of fs.readdirSync(dir).sort()) {
        const file = path.join(dir, name);
        if (fs.statSync(file).isDirectory()) walk(file);
        else files.push(file);
      }
    };
    walk(seed);
    for (const file of files) {
      const key = path.relative(seed, file).split(path.sep).map(rfc3986).join('/');
      const body = fs.readFileSync(file);
      await new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: `/${bucket}/${key}`,
          headers: { 'Content-Length': body.length } }, res => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${key}: ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  }
  console.log(`PORT ${port}`);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
