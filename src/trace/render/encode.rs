//! A picture as PNG bytes, a sequence of pictures as a looping animated GIF.

use super::picture::Picture;

/// PNG bytes of a picture.
pub fn png(p: &Picture) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let mut out = vec![];
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&p.rgb, p.width, p.height, image::ExtendedColorType::Rgb8)
        .map_err(|e| format!("encoding a PNG: {e}"))?;
    Ok(out)
}

/// An animated GIF of `pictures` (each shown `delay_ms`), padded to the largest one, looping.
pub fn gif(pictures: &[Picture], delay_ms: u32) -> Result<Vec<u8>, String> {
    use image::codecs::gif::{GifEncoder, Repeat};
    use image::{Delay, Frame, RgbaImage};
    let w = pictures.iter().map(|p| p.width).max().unwrap_or(1);
    let h = pictures.iter().map(|p| p.height).max().unwrap_or(1);
    let mut out = vec![];
    {
        let mut enc = GifEncoder::new_with_speed(&mut out, 20);
        enc.set_repeat(Repeat::Infinite)
            .map_err(|e| format!("encoding the GIF: {e}"))?;
        for p in pictures {
            let mut img = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
            for y in 0..p.height {
                for x in 0..p.width {
                    let i = ((y * p.width + x) * 3) as usize;
                    img.put_pixel(
                        x,
                        y,
                        image::Rgba([p.rgb[i], p.rgb[i + 1], p.rgb[i + 2], 255]),
                    );
                }
            }
            let frame = Frame::from_parts(img, 0, 0, Delay::from_numer_denom_ms(delay_ms, 1));
            enc.encode_frame(frame)
                .map_err(|e| format!("encoding the GIF: {e}"))?;
        }
    }
    Ok(out)
}
