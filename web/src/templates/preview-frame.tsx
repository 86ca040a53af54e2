/**
 * User-written HTML, shown only here: a frame with `sandbox=""` runs no script, submits no form,
 * opens nothing and has an opaque origin (no cookie, no access to the dashboard).
 */
export function PreviewFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      className="h-[32rem] w-full rounded-md border border-line bg-white"
    />
  );
}
