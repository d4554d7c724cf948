// "Download for PyTorch": the Studio's model as model.safetensors, vocab.json and model.py (the
// files of `attn export --format pytorch`, docs/pytorch.md) in one zip, whose folder unpacks
// next to the user's code: `import model; model.load("sentiment-model-pytorch")`.
import type { ExportedFile } from '../../../generated/attn_engine.mjs';
import { download } from '../../export/export';
import { zipStored } from '../../export/zip';
import { el, errorMessage } from '../dom';

export const PYTORCH_FOLDER = 'sentiment-model-pytorch';

/** The button: `exportFiles` asks the engine for the files (EngineBridge.exportPytorch), and
 *  `report(status, error)` shows the outcome (one of the two is empty). */
export function pytorchExportButton(
  exportFiles: () => Promise<ExportedFile[]>,
  report: (status: string, error: string) => void,
): HTMLButtonElement {
  const button = el('button', {
    type: 'button',
    textContent: 'Download for PyTorch (.zip)',
    id: 'model-download-pytorch',
    title: 'model.safetensors, vocab.json and model.py: the model as a torch.nn.Module',
    disabled: true,
  });
  button.addEventListener('click', () => {
    report('', '');
    exportFiles()
      .then((files) => {
        const zip = zipStored(files.map((f) => ({ name: `${PYTORCH_FOLDER}/${f.name}`, bytes: f.bytes })));
        download(new Blob([zip.buffer as ArrayBuffer], { type: 'application/zip' }), `${PYTORCH_FOLDER}.zip`);
        report(`PyTorch export made (${zip.byteLength} bytes): see model.py inside for how to load it.`, '');
      })
      .catch((error: unknown) => report('', `Could not export the model: ${errorMessage(error)}`));
  });
  return button;
}
