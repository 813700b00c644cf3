// Rules in a link: the house-rule YAML (or a bundled variant's id) carried in the page address's
// fragment, so every phone at the table opens the same rules and the service keeps nothing. The
// fragment is never sent to the service. YAML is deflated where the browser can (``z.``), else plain
// UTF-8 (``y.``), then base64url.

const MAX_BYTES = 256 * 1024;      // the service's limit on a house rule's YAML

function toBase64url(bytes) {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new Error('the rules in the link are larger than the service takes (256 KiB)');
    }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

const DEFLATE = typeof CompressionStream === 'function';

/** The link that opens this page with ``rules``: {yaml} (house rules) or {variant} (a bundled id). */
export async function shareLink(rules) {
  const url = new URL(window.location.href);
  url.search = '';
  if (rules.variant) {
    url.hash = `variant=${encodeURIComponent(rules.variant)}`;
    return url.href;
  }
  const bytes = new TextEncoder().encode(rules.yaml);
  const packed = DEFLATE ? `z.${toBase64url(await through(new CompressionStream('deflate-raw'), bytes))}`
    : `y.${toBase64url(bytes)}`;
  url.hash = `rules=${packed}`;
  return url.href;
}

/** The rules a page address carries ({yaml} or {variant}), null when it carries none; a link that cannot
 * be read (cut short, altered) throws an Error saying so. */
export async function rulesInLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.has('variant')) return {variant: params.get('variant')};
  const packed = params.get('rules');
  if (packed === null) return null;
  const m = /^([zy])\.([A-Za-z0-9_-]+)$/.exec(packed);
  if (!m) throw new Error('the rules in the link cannot be read (it may have been cut short)');
  let bytes;
  try {
    bytes = fromBase64url(m[2]);
    if (m[1] === 'z') {
      if (!DEFLATE) throw new Error('this browser cannot unpack the rules in the link; open it in a newer one');
      bytes = await through(new DecompressionStream('deflate-raw'), bytes);
    }
    return {yaml: new TextDecoder('utf-8', {fatal: true}).decode(bytes)};
  } catch (error) {
    throw new Error(error.message.startsWith('the rules') || error.message.startsWith('this browser') ? error.message
      : 'the rules in the link cannot be read (it may have been cut short)');
  }
}
