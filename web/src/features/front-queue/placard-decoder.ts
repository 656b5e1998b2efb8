/**
 * Reads QR codes from a video frame (issue 53's Scan): the browser's own
 * BarcodeDetector where it has one, else zxing-wasm, whose WebAssembly is
 * served by the app itself (a Vite asset; never a CDN). Loaded only when the
 * Scan opens.
 */
export type Decode = (frame: HTMLCanvasElement) => Promise<string[]>;

interface DetectorLike {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>>;
}
type DetectorClass = {
  new (options: { formats: string[] }): DetectorLike;
  getSupportedFormats(): Promise<string[]>;
};

const nativeDecoder = async (): Promise<Decode | null> => {
  const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return async (frame) => (await detector.detect(frame)).map((code) => code.rawValue);
  } catch {
    return null;
  }
};

const wasmDecoder = async (): Promise<Decode> => {
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
    fireImmediately: true,
  });
  return async (frame) => {
    const context = frame.getContext('2d', { willReadFrequently: true });
    if (!context || frame.width === 0) return [];
    const image = context.getImageData(0, 0, frame.width, frame.height);
    const found = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 4 });
    return found.filter((code) => code.isValid).map((code) => code.text);
  };
};

/** The decoder of this browser: its own, else zxing-wasm. */
export const loadDecoder = async (): Promise<Decode> => (await nativeDecoder()) ?? wasmDecoder();
