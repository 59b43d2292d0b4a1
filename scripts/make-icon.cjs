#!/usr/bin/env node
'use strict';
/**
 * Draws the application icon, resources/icon.png (1024×1024), the one source every platform's icon is made from:
 * electron-builder turns it into the macOS .icns, the Windows .ico and the Linux icon set at package time, and
 * the window uses it as is. Run again after changing the drawing: `node scripts/make-icon.cjs`.
 *
 * The drawing (in a 256-unit design grid): a rounded teal square, three rising bars on a baseline. The square
 * keeps a small margin inside the canvas, as the platforms' icon grids expect.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createCanvas } = require('@napi-rs/canvas');

const SIZE = 1024;
const MARGIN = 56; // px at 1024: the square is 912 wide
const COLORS = { tile: '#14535f', bar: '#ecf4f0', baseline: '#a0c8be' };
const BARS = [
  { x: 64, top: 150 },
  { x: 116, top: 110 },
  { x: 168, top: 70 },
];
const BAR = { width: 28, bottom: 200 };
const BASELINE = { x: 56, y: 200, width: 152, height: 8 };

function draw() {
  const canvas = createCanvas(SIZE, SIZE);
  const ctx = canvas.getContext('2d');
  const unit = (SIZE - 2 * MARGIN) / 256;
  const at = (v) => MARGIN + v * unit;
  ctx.fillStyle = COLORS.tile;
  ctx.beginPath();
  ctx.roundRect(MARGIN, MARGIN, SIZE - 2 * MARGIN, SIZE - 2 * MARGIN, 48 * unit);
  ctx.fill();
  ctx.fillStyle = COLORS.bar;
  for (const b of BARS) ctx.fillRect(at(b.x), at(b.top), BAR.width * unit, (BAR.bottom - b.top) * unit);
  ctx.fillStyle = COLORS.baseline;
  ctx.fillRect(at(BASELINE.x), at(BASELINE.y), BASELINE.width * unit, BASELINE.height * unit);
  return canvas.toBuffer('image/png');
}

if (require.main === module) {
  const out = path.join(__dirname, '..', 'resources', 'icon.png');
  fs.writeFileSync(out, draw());
  console.log(`make-icon: ${path.relative(process.cwd(), out)} (${SIZE}×${SIZE})`);
}

module.exports = { draw, SIZE };
