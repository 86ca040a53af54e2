// Click tracking: every http(s) link of an <a> tag goes through our redirect; mailto:, anchors
// and the unsubscribe links are left as they are. The open pixel goes before </body>.

const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;

export function rewriteLinks(
  html: string,
  wrap: (url: string) => string,
  keep: (url: string) => boolean,
): string {
  return html.replace(ANCHOR_HREF, (match, prefix: string, quote: string, url: string) => {
    const decoded = url.replace(/&amp;/g, '&');
    if (keep(decoded)) return match;
    return `${prefix}${quote}${wrap(decoded)}${quote}`;
  });
}

export function addOpenPixel(html: string, pixelUrl: string): string {
  const pixel = `<img src="${pixelUrl}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const close = html.search(/<\/body\s*>/i);
  return close === -1 ? `${html}${pixel}` : `${html.slice(0, close)}${pixel}${html.slice(close)}`;
}
