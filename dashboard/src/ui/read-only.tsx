// Shown where a role may look but not change (the API refuses the writes as well).
export function ReadOnlyNote({ what }: { what: string }) {
  return (
    <p class="notice" role="note">
      Your role can view {what} but not change them.
    </p>
  );
}
