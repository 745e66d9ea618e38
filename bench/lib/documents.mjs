// Documents for bench data: unique, valid CPFs from a running number.

/** A valid CPF from a 9-digit base: unique bases give unique documents. */
export function cpfFrom(base) {
  const d = String(base).padStart(9, '0').split('').map(Number);
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += d[i] * (len + 1 - i);
    const r = sum % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  return d.join('');
}
