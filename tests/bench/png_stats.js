// Prints {"width", "height", "colors", "non_white"} for an 8-bit RGB/RGBA PNG
// (what Chromium's --screenshot writes), decoding it with node's zlib only.
'use strict';

const fs = require('fs');
const zlib = require('zlib');

const data = fs.readFileSync(process.argv[2]);
if (data.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
let offset = 8, width = 0, height = 0, colorType = 0, depth = 0;
const idat = [];
while (offset < data.length) {
  const length = data.readUInt32BE(offset);
  const type = data.toString('latin1', offset + 4, offset + 8);
  const body = data.subarray(offset + 8, offset + 8 + length);
  if (type === 'IHDR') {
    width = body.readUInt32BE(0);
    height = body.readUInt32BE(4);
    depth = body[8];
    colorType = body[9];
  } else if (type === 'IDAT') {
    idat.push(body);
  }
  offset += 12 + length;
}
if (depth !== 8 || (colorType !== 2 && colorType !== 6)) throw new Error(`unsupported PNG ${depth}/${colorType}`);
const channels = colorType === 6 ? 4 : 3;
const raw = zlib.inflateSync(Buffer.concat(idat));
const stride = width * channels;
const pixels = Buffer.alloc(stride * height);
for (let y = 0; y < height; y++) {
  const filter = raw[y * (stride + 1)];
  for (let x = 0; x < stride; x++) {
    const value = raw[y * (stride + 1) + 1 + x];
    const left = x >= channels ? pixels[y * stride + x - channels] : 0;
    const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
    const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
    let predicted = 0;
    if (filter === 1) predicted = left;
    else if (filter === 2) predicted = up;
    else if (filter === 3) predicted = (left + up) >> 1;
    else if (filter === 4) {
      const p = left + up - upLeft;
      const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
      predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    pixels[y * stride + x] = (value + predicted) & 0xff;
  }
}
const colors = new Set();
let nonWhite = 0;
for (let i = 0; i < pixels.length; i += channels) {
  const rgb = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
  colors.add(rgb);
  if (rgb !== 0xffffff) nonWhite++;
}
process.stdout.write(JSON.stringify({ width, height, colors: colors.size, non_white: nonWhite }) + '\n');
