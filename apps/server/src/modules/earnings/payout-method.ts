import type { payoutMethodRequestSchema } from '@fanverse/contract';
import type { z } from 'zod';

export type PayoutMethodInput = z.infer<typeof payoutMethodRequestSchema>;

const last4 = (v: string) => `•••• ${v.slice(-4)}`;

/**
 * What may be shown of a payout method: the last digits, never the full number. No words: the
 * kind travels apart and each screen names it in the reader's language ("Card" / "Tarjeta").
 */
export function maskPayoutMethod(m: PayoutMethodInput): string {
  switch (m.kind) {
    case 'card':
      return last4(m.cardNumber);
    case 'bank':
      return `${m.bank} ${last4(m.accountNumber)}`;
    case 'transfer':
      return `${m.service} ${m.recipient.length > 4 ? `${m.recipient.slice(0, 2)}•••${m.recipient.slice(-2)}` : '•••'}`;
  }
}
