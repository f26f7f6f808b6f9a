/**
 * The files of the interactive reference: Swagger UI from swagger-ui-dist (served by the API itself,
 * no CDN), a page and an initializer of ours. In Lambda the dist files are copied next to the bundle
 * (see REFERENCE_ASSET_FILES in the stack); on the embedded stack they are read from node_modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundleDir } from '#shared/bundle-layout.ts';

/** Files of swagger-ui-dist the reference serves, and their media types. */
export const REFERENCE_ASSET_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

/** Folder name of the copied files beside the Lambda bundle. */
export const BUNDLED_ASSET_DIR = 'swagger-ui';

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Content Repository API reference</title>
<link rel="stylesheet" href="./swagger-ui.css">
<link rel="icon" type="image/png" href="./favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="./swagger-ui-bundle.js"></script>
<script src="./swagger-initializer.js"></script>
</body>
</html>
`;

export const REFERENCE_INITIALIZER = `window.ui = SwaggerUIBundle({
  url: './openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

let assetDir: string | undefined;

function locateAssets(): string {
  if (assetDir) return assetDir;
  const bundled = join(bundleDir(import.meta.url), BUNDLED_ASSET_DIR);
  assetDir = existsSync(bundled)
    ? bundled
    : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return assetDir;
}

const cache = new Map<string, Buffer>();

/** The bytes of a served swagger-ui-dist file, or undefined for any other name. */
export function readReferenceAsset(file: string): { body: Buffer; mediaType: string } | undefined {
  // Own names only: `constructor` or `__proto__` must not be found on the object's prototype.
  if (!Object.hasOwn(REFERENCE_ASSET_FILES, file)) return undefined;
  const mediaType = REFERENCE_ASSET_FILES[file] as string;
  let body = cache.get(file);
  if (!body) {
    body = readFileSync(join(locateAssets(), file));
    cache.set(file, body);
  }
  return { body, mediaType };
}
