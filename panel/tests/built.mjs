// The tests run against the built panel (what the jar serves): dist/ after `npm run build`, or the folder
// in $TURNDIFF_PANEL_DIST (the Maven build points it at target/classes/io/turndiff/panel).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const dist = process.env.TURNDIFF_PANEL_DIST
  ? path.resolve(process.env.TURNDIFF_PANEL_DIST)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

if (!fs.existsSync(path.join(dist, 'panel-files.json'))) {
  throw new Error(`no built panel in ${dist}: run npm run build first (npm test does)`);
}

/** Imports a module of the built panel, e.g. built('assets/js/routes.js'). */
export const built = file => import(pathToFileURL(path.join(dist, file)).href);
