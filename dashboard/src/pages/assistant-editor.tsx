import { PageHeader } from '../ui/common.js';

// Placeholder until its owner writes the page (the dashboard helpers replace this file).
export default function Page() {
  return <PageHeader title="assistant editor" />;
}
