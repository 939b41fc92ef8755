// pdf.js ships no types for its worker module; it is only handed to pdf.js as `pdfjsWorker`.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
