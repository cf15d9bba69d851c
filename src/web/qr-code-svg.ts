import QRCode from 'qrcode';

/**
 * A QR code as SVG, drawn here (docs/http-api.md, "Second factors": no outside service ever sees
 * the authenticator app's secret): dark modules on white with a quiet zone
 * (ISO/IEC 18004 §6.3.8), error correction M, which phone cameras read at
 * the size the pages show it.
 */
export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}
