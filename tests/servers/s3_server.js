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

// Two things S3 does that s3rver 3.7.1 does not, done here so the tests see
// S3's behaviour: a suffix range "bytes=-N" means the last N bytes (s3rver
// parses it as "bytes=0-N", a prefix of N + 1 bytes), and If-Match with
// another ETag than the object's fails with 412. The signature was checked
// before this rewrite, so rewriting Range does not affect it. Resolves to
// 'precondition' when the request must fail with 412.
async function objectConditions(server, req) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const pathPart = req.url.split('?')[0];
  const slash = pathPart.indexOf('/', 1);
  if (slash < 0) return null;
  const bucketName = decodeURIComponent(pathPart.slice(1, slash));
  const key = decodeURIComponent(pathPart.slice(slash + 1));
  if (key === '') return null;
  let metadata;
  try {
    metadata = await server.store.getMetadata(bucketName, key);
  } catch (error) {
    return null;  // no such object: s3rver answers 404 itself
  }
  const size = Number(metadata['content-length']);
  const range = /^bytes=-(\d+)$/.exec(req.headers['range'] || '');
  if (range && size > 0) {
    const want = Math.min(Number(range[1]), size);
    req.headers['range'] = `bytes=${size - want}-${size - 1}`;
  }
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== metadata['etag']) return 'precondition';
  return null;
}

async function main() {
  const server = new S3rver({ directory: storage, silent: true, configureBuckets: [{ name: bucket }] });
  await server.configureBuckets();
  const handle = server.callback();
  const refuse = (res, status, code, message) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const httpServer = http.createServer((req, res) => {
    const problem = signatureProblem(req);
    if (problem) {
      refuse(res, 403, 'SignatureDoesNotMatch', problem);
      return;
    }
    objectConditions(server, req).then(outcome => {
      if (outcome === 'precondition') refuse(res, 412, 'PreconditionFailed', 'If-Match does not match the ETag');
      else handle(req, res);
    }, () => handle(req, res));
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
