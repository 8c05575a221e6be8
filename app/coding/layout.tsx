import type { ReactNode } from 'react';
import 'diff2html/bundles/css/diff2html.min.css';
import { Providers } from '@/components/providers';

export default function CodingLayout({ children }: { readonly children: ReactNode }) {
  return (
    <Providers>
      <main className="wide">{children}</main>
    </Providers>
  );
}
