import type { Metadata } from 'next';
import { TokensPanel } from '@/components/account/tokens-panel';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Tokens · Shadowbox' };

export default async function TokensPage() {
  const { caller } = await signedInCaller('/coding/tokens');
  const [me, tokens] = await Promise.all([caller.account.me(), caller.account.tokens()]);
  return (
    <>
      <h1>API tokens</h1>
      <p>
        Agents and scripts use a token with the REST API (<code>/api/v1</code>) and MCP. A token
        acts as you, never with more than your role allows.
      </p>
      <TokensPanel role={me.role} tokenScopes={me.tokenScopes} initialTokens={tokens} />
    </>
  );
}
