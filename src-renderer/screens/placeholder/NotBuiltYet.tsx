/** A screen listed in the navigation whose feature is not built yet. It says so plainly; it shows no sample data. */
export function NotBuiltYet({ title, what }: { title: string; what: string }) {
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
        </div>
      </header>
      <section className="panel placeholder" aria-label={`${title} (not built yet)`}>
        <span className="tagline">Not built yet</span>
        <p>{what}</p>
        <p className="faint">This screen has no data behind it yet; nothing here is a preview of real figures.</p>
      </section>
    </div>
  );
}
